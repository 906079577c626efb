import { formatDate } from "~/models/shared/format";
import { useTranslation } from "~/translations";

/** One announcement's title and text (plain text: the line breaks the administrator typed are kept). */
export function AnnouncementText({ title, body, headingLevel }: { title: string; body: string; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="min-w-0 flex-1">
      <Heading className="break-words font-medium">{title}</Heading>
      <p className="mt-1 whitespace-pre-line break-words text-sm">{body}</p>
    </div>
  );
}

/** The administrator's announcements a user sees (decision 045), newest first, each with its date. */
export function AnnouncementList({
  items,
  headingLevel,
}: {
  items: ReadonlyArray<{ id: number; title: string; body: string; createdAt: string }>;
  headingLevel: 2 | 3;
}) {
  const { i18n } = useTranslation();
  return (
    <ul className="divide-y divide-base-300">
      {items.map((item) => (
        <li key={item.id} className="py-2">
          <AnnouncementText title={item.title} body={item.body} headingLevel={headingLevel} />
          <p className="mt-1 text-xs text-base-content/70">{formatDate(item.createdAt, i18n.language)}</p>
        </li>
      ))}
    </ul>
  );
}
