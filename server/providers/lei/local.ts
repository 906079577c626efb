import type { LeiProvider } from "./types";

/**
 * The LEI provider over the store. Until the LEI tables (migration 0011, the
 * golden-copy importers) are in this tree, the store holds no LEI records:
 * every search is empty and every LEI unknown, which is what an empty store
 * answers.
 */
export function createLocalLeiProvider(): LeiProvider {
  return {
    name: "local",
    autocomplete: async () => [],
    record: async () => null,
    directChildren: async () => [],
    ultimateParent: async () => null,
    managingLou: async () => null,
  };
}
