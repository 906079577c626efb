import { createContext, useContext } from "react";
import { ActionForm, type ActionFormProps } from "~/components/ui/ActionForm";
import { CONFIRM_PARAMS, useUrlWith } from "./urls";

/** What an accepted change of the slide-over does (shows 'Saved!'). */
export const SavedContext = createContext<() => void>(() => {});

/**
 * An ActionForm of the supplier screen's connection: it posts to the screen
 * without a confirmation step in the URL, and an accepted change shows the
 * slide-over's 'Saved!'.
 */
export function ConnectionForm(props: Omit<ActionFormProps, "action" | "onSuccess">) {
  const url = useUrlWith();
  const onSaved = useContext(SavedContext);
  return <ActionForm {...props} action={url({}, CONFIRM_PARAMS)} onSuccess={onSaved} />;
}
