import { describe, expect, it } from 'vitest';
import {
  englishTitleCase,
  hasCasedLetters,
  isAllCaps,
  isAllLowercase,
  sentenceCase,
} from '../../../src/domains/releases/rules/engine/text.ts';

// The helpers take a shortcut for ASCII text; these hold both ways (ASCII and not) to the same rules.
describe('title text helpers', () => {
  it('tell cased letters apart in ASCII and in any script', () => {
    expect(hasCasedLetters('1999 - !?')).toBe(false);
    expect(hasCasedLetters('1999 x')).toBe(true);
    expect(hasCasedLetters('東京 2020')).toBe(false);
    expect(hasCasedLetters('東京 é')).toBe(true);
    expect(isAllCaps('LOUD NOISES')).toBe(true);
    expect(isAllCaps('DNA')).toBe(false); // fewer than four letters
    expect(isAllCaps('ÉTÉ À PARIS')).toBe(true);
    expect(isAllCaps('ÉTÉ à PARIS')).toBe(false);
    expect(isAllLowercase('quiet song')).toBe(true);
    expect(isAllLowercase('straße')).toBe(true);
    expect(isAllLowercase('Straße')).toBe(false);
    expect(isAllLowercase('x 1')).toBe(false); // fewer than two letters
  });

  it('capitalises the first letter of a word, ASCII or not, and leaves other words alone', () => {
    expect(englishTitleCase('the night we met', false)).toBe('The Night We Met');
    expect(englishTitleCase('été of the iPhone', false)).toBe('Été of the iPhone');
    expect(englishTitleCase('2nd time in a row', false)).toBe('2nd Time in a Row');
    expect(englishTitleCase('"quoted" words (and more)', false)).toBe('"Quoted" Words (And More)');
    expect(englishTitleCase('LOUD AND CLEAR II', true)).toBe('Loud and Clear II');
    expect(englishTitleCase('go to www.example.com now', false)).toBe('Go to www.example.com Now');
    expect(englishTitleCase('song (feat. ana) of mine', true)).toBe('Song (feat. Ana) of Mine');
    expect(sentenceCase('ÉTÉ À PARIS')).toBe('Été à paris');
  });
});
