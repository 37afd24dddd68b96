/** The square sizes a cover thumbnail comes in, in pixels: a list row, a card, a retina card. */
export const THUMBNAIL_SIZES = [64, 160, 320] as const;
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];
export const DEFAULT_THUMBNAIL_SIZE: ThumbnailSize = 160;

export const isThumbnailSize = (value: unknown): value is ThumbnailSize =>
  THUMBNAIL_SIZES.includes(value as ThumbnailSize);

/**
 * Thumbnail URLs expire at the end of the window after the current one, so every request within a
 * window mints the same URL (a browser keeps using the image it has) and each URL lives 6 to 12 hours.
 */
export const THUMBNAIL_URL_WINDOW_SECONDS = 6 * 3600;
