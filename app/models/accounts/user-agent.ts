/**
 * A browser's User-Agent in plain words for the list of one's sessions ("Chrome" on "Windows"). Names of products,
 * not translated; null when the header says nothing recognisable.
 */
export interface DeviceWords {
  browser: string | null;
  os: string | null;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/HeadlessChrome\//, "Chrome (headless)"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
  [/curl\//, "curl"],
];

const SYSTEMS: [RegExp, string][] = [
  [/Windows/, "Windows"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

export function describeUserAgent(userAgent: string | null | undefined): DeviceWords {
  const ua = userAgent ?? "";
  return { browser: BROWSERS.find(([re]) => re.test(ua))?.[1] ?? null, os: SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null };
}

/** The words for a session's device: "Chrome on Windows" (account:device.on), the browser alone, or "Unknown browser". */
export function deviceLabel(device: DeviceWords, t: (key: string, values?: Record<string, string>) => string): string {
  if (!device.browser) return t("account:device.unknown");
  return device.os ? t("account:device.on", { browser: device.browser, os: device.os }) : device.browser;
}
