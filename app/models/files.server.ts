/**
 * The user's uploaded files (the file uploads panel). SCAFFOLDING:
 * signatures are the contract, bodies are being built.
 */
export interface FileListItem {
  id: number;
  fileName: string;
  /** Bytes. */
  fileSize: number;
  mimeType: string;
}

/** The signed-in user's own files in their organisation, newest first. */
export async function listFiles(_input: { organizationId: number; userId: number }): Promise<FileListItem[]> {
  return [];
}
