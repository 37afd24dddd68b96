/** At most this many statement texts are prepared (each connection prepares those it runs, once). */
export const PREPARED_TEXTS = 200;
/** A text is prepared from its second use on: a statement run once is never prepared. */
const USES_BEFORE_PREPARING = 2;
/** Characters of the texts whose uses are counted, at most (forgotten all at once when full). */
const COUNTED_CHARACTERS = 4_000_000;
/**
 * A statement whose answer is a table's columns by `*` (`select *`, `select t.*`, `returning *`) is
 * never prepared: adding a column (a migration while the server runs) changes its result type, which
 * PostgreSQL refuses for a prepared statement ("cached plan must not change result type"). A `*`
 * inside a subquery does not shape the answer and does not count.
 */
const ALL_COLUMNS = /^\s*select\s+(?:distinct\s+)?(?:"?\w+"?\.)?\*|\breturning\s+(?:"?\w+"?\.)?\*/i;

/** PostgreSQL's refusal of a prepared statement whose result type changed under it (a migration). */
export const isResultTypeChange = (error: unknown) =>
  (error as { code?: string } | null)?.code === '0A000' &&
  /cached plan must not change result type/.test(String((error as Error).message));

/**
 * Which statement texts run as prepared statements, and under which name. A text qualifies from its
 * second use, until `capacity` names are given: the texts this code and the ORM send are a bounded
 * set, but a statement whose text varies with its values (a list of n parameters) is kept from
 * growing it by the cap, and each connection holds at most `capacity` prepared statements (a refused
 * text's name is not given again).
 */
export class PreparedStatementNames {
  readonly capacity: number;
  private readonly names = new Map<string, string>();
  private readonly uses = new Map<string, number>();
  private readonly refused = new Set<string>();
  private counted = 0;
  private issued = 0;

  constructor(capacity = PREPARED_TEXTS) {
    this.capacity = capacity;
  }

  /** The name to run `text` under, or null to send it unnamed. */
  nameFor(text: string): string | null {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.issued >= this.capacity || this.refused.has(text) || ALL_COLUMNS.test(text)) return null;
    const used = (this.uses.get(text) ?? 0) + 1;
    if (used < USES_BEFORE_PREPARING) {
      if (this.counted + text.length > COUNTED_CHARACTERS) {
        this.uses.clear();
        this.counted = 0;
      }
      this.uses.set(text, used);
      this.counted += text.length;
      return null;
    }
    this.uses.delete(text);
    this.counted -= text.length;
    // Names are never reused: a connection that prepared a refused text keeps it under its old name.
    const name = `tributary_${++this.issued}`;
    this.names.set(text, name);
    return name;
  }

  /** `text` is sent unnamed from now on (its result type changed under a prepared statement). */
  refuse(text: string): void {
    if (this.names.delete(text)) this.refused.add(text);
  }

  /** How many texts are prepared now (the metrics' and the tests' view). */
  get size(): number {
    return this.names.size;
  }
}
