import { useEffect, useState } from "react";

// Once one component has hydrated, later mounts know it at once (no second render).
let hydratedOnce = false;

/** False during the server render and the first client render; true once the page's scripts run. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
