import { isObj, isSent, type Report, show, text, typeName } from './issues.ts';
import { items, objectItems, type Scope } from './scope.ts';

/** Reports a required string field that is missing, not a string or blank. Returns the trimmed text. */
export function requireText(
  report: Report,
  rule: string,
  path: string,
  value: unknown,
  label: string,
  suggestion?: string,
): string | undefined {
  if (!isSent(value)) {
    report(rule, path, `${label} is required.`, suggestion);
    return undefined;
  }
  if (typeof value !== 'string') {
    report(rule, path, `${label} must be a string, not ${typeName(value)} (${show(value)}).`, suggestion);
    return undefined;
  }
  const trimmed = text(value);
  if (trimmed === undefined) report(rule, path, `${label} must not be blank.`, suggestion);
  return trimmed;
}

/** Entries of a primary_artists array: an array of objects, each with a name. */
function checkPrimaryArtistEntries(report: Report, value: unknown, path: string): void {
  if (!isSent(value)) return;
  const rule = 'required.primary-artist-entry-name';
  if (!Array.isArray(value)) {
    report(rule, path, `primary_artists must be an array of artist objects, not ${typeName(value)}.`);
    return;
  }
  for (const item of items(value, path)) {
    if (!isObj(item.value)) {
      report(
        rule,
        item.path,
        `Each primary artist must be an object with a name, not ${typeName(item.value)}.`,
      );
      continue;
    }
    requireText(report, rule, `${item.path}.name`, item.value.name, 'The primary artist name');
  }
}

export function checkRequired(scope: Scope, report: Report): void {
  const { release } = scope;
  requireText(report, 'required.release-title', 'release.title', release.title, 'The release title');
  const firstListed = objectItems(release.primary_artists, 'release.primary_artists')[0];
  requireText(
    report,
    'required.primary-artist',
    'release.primary_artist_name',
    release.primary_artist_name,
    'The release primary_artist_name',
    text(firstListed?.value.name),
  );
  checkPrimaryArtistEntries(report, release.primary_artists, 'release.primary_artists');
  requireText(report, 'required.genre', 'release.genre', release.genre, 'The release genre');
  if (
    !isSent(release.release_date) ||
    (typeof release.release_date === 'string' && !text(release.release_date))
  ) {
    report('required.release-date', 'release.release_date', 'The release_date (YYYY-MM-DD) is required.');
  }
  requireText(
    report,
    'required.cover-art',
    'release.cover_art_file_url',
    release.cover_art_file_url,
    'The cover_art_file_url (from an upload or cover-art call)',
  );
  checkTracks(scope, report);
}

function checkTracks(scope: Scope, report: Report): void {
  const { tracks } = scope;
  if (!Array.isArray(tracks)) {
    report('required.tracks', 'tracks', `tracks must be an array of track objects, not ${typeName(tracks)}.`);
    return;
  }
  if (tracks.length === 0) {
    report('required.tracks', 'tracks', 'A release needs at least one track.');
    return;
  }
  for (const item of items(tracks, 'tracks')) {
    if (!isObj(item.value)) {
      report('required.tracks', item.path, `Each track must be an object, not ${typeName(item.value)}.`);
    }
  }
  for (const { track, path } of scope.trackViews) {
    requireText(report, 'required.track-title', `${path}.title`, track.title, 'The track title');
    requireText(
      report,
      'required.audio',
      `${path}.audio_file_url`,
      track.audio_file_url,
      'The track audio_file_url (from an upload)',
    );
    if (!isSent(track.explicit_flag)) {
      report('required.explicit-flag', `${path}.explicit_flag`, 'explicit_flag is required: true or false.');
    } else if (typeof track.explicit_flag !== 'boolean') {
      report(
        'required.explicit-flag',
        `${path}.explicit_flag`,
        `explicit_flag must be true or false, not ${show(track.explicit_flag)}.`,
      );
    }
    if (isSent(track.primary_artist_name) && !text(track.primary_artist_name)) {
      report(
        'required.primary-artist',
        `${path}.primary_artist_name`,
        typeof track.primary_artist_name === 'string'
          ? 'A track primary_artist_name must not be blank; omit it to use the release artist.'
          : `A track primary_artist_name must be a string, not ${typeName(track.primary_artist_name)}.`,
      );
    }
    checkPrimaryArtistEntries(report, track.primary_artists, `${path}.primary_artists`);
    checkWriters(report, track.writers, `${path}.writers`);
  }
}

function checkWriters(report: Report, writers: unknown, path: string): void {
  if (!isSent(writers)) {
    report('required.writers', path, 'Each track needs at least one writer in writers.');
    return;
  }
  if (!Array.isArray(writers)) {
    report('required.writers', path, `writers must be an array of writer objects, not ${typeName(writers)}.`);
    return;
  }
  if (writers.length === 0) {
    report('required.writers', path, 'Each track needs at least one writer in writers.');
    return;
  }
  for (const item of items(writers, path)) {
    if (!isObj(item.value)) {
      report(
        'required.writers',
        item.path,
        `Each writer must be an object with a name, not ${typeName(item.value)}.`,
      );
      continue;
    }
    requireText(report, 'required.writer-name', `${item.path}.name`, item.value.name, 'The writer name');
  }
}
