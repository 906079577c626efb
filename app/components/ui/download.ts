import { useState } from "react";
import { fileNameFromContentDisposition } from "~/models/files/content-disposition";

/** A click without modifier keys: new-tab and save-as clicks keep the browser's own behaviour. */
export function isPlainClick(event: React.MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** Hands a fetched file to the browser's downloads under a name: the one way a script can. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: the browser reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Fetches a download link and saves it under the server's file name (else `fallbackName`); false on any failure. */
export async function fetchAndSave(href: string, fallbackName: string): Promise<boolean> {
  try {
    const response = await fetch(href, { credentials: "same-origin" });
    if (!response.ok) return false;
    const blob = await response.blob();
    saveBlob(blob, fileNameFromContentDisposition(response.headers.get("Content-Disposition")) ?? fallbackName);
    return true;
  } catch {
    return false;
  }
}

/**
 * A download link that works without JavaScript (the server answers with an
 * attachment) and, with it, fetches the file so the page can say it is busy
 * or that the download failed instead of leaving for an error page.
 */
export function useFetchDownload(href: string, fallbackName: string) {
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  const onClick = async (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    if (state === "busy") return;
    setState("busy");
    setState((await fetchAndSave(href, fallbackName)) ? "idle" : "failed");
  };
  return { state, onClick };
}
