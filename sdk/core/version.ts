/** The SDK release that host teams pin when they copy `sdk/`. */
export const SDK_VERSION = "1.2.0";
