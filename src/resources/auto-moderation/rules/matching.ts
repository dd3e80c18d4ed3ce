/**
 * Whether a message's content sets off a rule (v10's matching, pure): keywords with their wildcards
 * (`word` is a whole word, `word*` a word's start, `*word` its end, `*word*` anywhere), matching
 * ignoring case; a keyword preset's built-in list; the rule's regex patterns (run by the caller,
 * which bounds their time); and the allow list, whose entries (with the same wildcards) let a match
 * pass. Mention spam counts the unique users and roles mentioned.
 */
import { AutoModerationRuleKeywordPresetType, AutoModerationRuleTriggerType } from 'discord-api-types/v10';
import { readRustPattern, type CompiledPattern } from './regex.js';
import type { StoredRule } from './rule.js';

/** What set a rule off: the keyword (or pattern) and the text it matched (empty for mention spam). */
export interface RuleMatch {
  matched_keyword: string | null;
  matched_content: string;
}

/** One pattern's matches in the content, in order; [] when none (or the pattern ran out of time). */
export type PatternRunner = (pattern: CompiledPattern, content: string) => string[];

/** How many matches of one keyword or pattern are looked at for one not allowed (a message is 4,000 characters at most). */
const MATCHES_LOOKED_AT = 100;

/**
 * The keyword presets' words. slashd is a sandbox: each list is a few words, enough to see a
 * preset rule act, not a moderation list (the slurs preset holds stand-ins, not slurs).
 */
export const PRESET_KEYWORDS: Readonly<Record<AutoModerationRuleKeywordPresetType, readonly string[]>> = {
  [AutoModerationRuleKeywordPresetType.Profanity]: ['damn', 'crap', 'bloody hell', 'frick*'],
  [AutoModerationRuleKeywordPresetType.SexualContent]: ['porn*', 'xxx', 'nsfw'],
  [AutoModerationRuleKeywordPresetType.Slurs]: ['slurword', 'examplslur*'],
};

const WORD_CHAR = '[\\p{L}\\p{N}_]';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
}

/**
 * A keyword as a pattern: whole words unless a `*` stands at an end, where the match runs on to
 * the end of the word (so `cat*` matches "catapult" whole).
 */
export function keywordPattern(keyword: string): RegExp {
  const known = KEYWORD_PATTERNS.get(keyword);
  if (known) return known;
  if (KEYWORD_PATTERNS.size >= KEYWORD_PATTERNS_KEPT) KEYWORD_PATTERNS.clear();
  const pattern = compileKeyword(keyword);
  KEYWORD_PATTERNS.set(keyword, pattern);
  return pattern;
}

/** Compiled keywords, by keyword: a message meets up to 6,000 of them. Emptied when full. */
const KEYWORD_PATTERNS = new Map<string, RegExp>();
const KEYWORD_PATTERNS_KEPT = 20_000;

function compileKeyword(keyword: string): RegExp {
  const leading = keyword.startsWith('*');
  const trailing = keyword.length > 1 && keyword.endsWith('*');
  const core = keyword.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  const start = leading ? `${WORD_CHAR}*` : `(?<!${WORD_CHAR})`;
  const end = trailing ? `${WORD_CHAR}*` : `(?!${WORD_CHAR})`;
  return new RegExp(`${start}${escapeRegExp(core)}${end}`, 'giu');
}

function keywordMatches(keyword: string, content: string): string[] {
  if (keyword.replace(/\*/g, '') === '') return [];
  const found: string[] = [];
  for (const match of content.matchAll(keywordPattern(keyword))) {
    if (match[0] !== '') found.push(match[0]);
    if (found.length >= MATCHES_LOOKED_AT) break;
  }
  return found;
}

/** True when an allow list entry covers the matched text (the entry matches within it, its wildcards as a keyword's). */
function allowed(allowList: readonly string[], matched: string): boolean {
  return allowList.some((entry) => keywordMatches(entry, matched).length > 0);
}

function firstNotAllowed(keyword: string, found: readonly string[], allowList: readonly string[]): RuleMatch | null {
  const kept = found.find((text) => !allowed(allowList, text));
  return kept === undefined ? null : { matched_keyword: keyword, matched_content: kept };
}

/** The unique users (`<@id>`, `<@!id>`) and roles (`<@&id>`) the content mentions. */
export function uniqueMentions(content: string): number {
  const seen = new Set<string>();
  for (const match of content.matchAll(/<@([!&]?)(\d{1,20})>/g))
    seen.add(`${match[1] === '&' ? 'r' : 'u'}${match[2]!}`);
  return seen.size;
}

/** The first thing in the content that sets the rule off, or null. Spam and member profile rules never match a message. */
export function ruleMatch(rule: StoredRule, content: string, runPattern: PatternRunner): RuleMatch | null {
  const m = rule.trigger_metadata;
  switch (rule.trigger_type) {
    case AutoModerationRuleTriggerType.Keyword: {
      for (const keyword of m.keyword_filter) {
        const match = firstNotAllowed(keyword, keywordMatches(keyword, content), m.allow_list);
        if (match) return match;
      }
      for (const source of m.regex_patterns) {
        const reading = readRustPattern(source);
        if (reading.kind !== 'pattern') continue;
        const match = firstNotAllowed(
          source,
          runPattern(reading.pattern, content).slice(0, MATCHES_LOOKED_AT),
          m.allow_list,
        );
        if (match) return match;
      }
      return null;
    }
    case AutoModerationRuleTriggerType.KeywordPreset: {
      for (const preset of m.presets) {
        for (const keyword of PRESET_KEYWORDS[preset]) {
          const match = firstNotAllowed(keyword, keywordMatches(keyword, content), m.allow_list);
          // v10 names no keyword of a preset.
          if (match) return { matched_keyword: null, matched_content: match.matched_content };
        }
      }
      return null;
    }
    case AutoModerationRuleTriggerType.MentionSpam:
      return uniqueMentions(content) > m.mention_total_limit ? { matched_keyword: null, matched_content: '' } : null;
    case AutoModerationRuleTriggerType.Spam:
    case AutoModerationRuleTriggerType.MemberProfile:
      return null;
  }
}
