/**
 * English stop-words, matched on the normalised surface form (before stemming), so that a
 * stem collision such as "does" → "doe" never hides a real word.
 *
 * Question words (what, who, when…) are included on purpose: they say what kind of answer is
 * wanted, not what it is about, and would otherwise dominate coverage in the answerer.
 * Contraction fragments ("don", "t", "s", "ll") appear because the tokenizer splits at
 * apostrophes.
 */
const WORDS = `
a about above after again against all am an and any are aren as at
be because been before being below between both but by
can cannot could couldn d did didn do does doesn doing don down during
each few for from further
had hadn has hasn have haven having he her here hers herself him himself his how
i if in into is isn it its itself
just ll m me might more most must mustn my myself
needn no nor not now o of off on once only or other ought our ours ourselves out over own
re s same shall shan she should shouldn so some such
t than that the their theirs them themselves then there these they this those through to too
under until up us ve very
was wasn we were weren what when where which while who whom whose why will with would wouldn
y you your yours yourself yourselves
`;

/**
 * Conversational filler of questions put to a support bot ("can you tell me how much…", "I would
 * like to know…", "does it come with…"). They say nothing about the topic; left in, a small
 * knowledge base that never uses them weighs them as its rarest terms and abstains.
 */
const CONVERSATIONAL = `
also anything anyone come comes everything get gets getting got hello hey hi know like many much need
please someone something tell thank thanks want way ways
`;

export const STOP_WORDS: ReadonlySet<string> = new Set(`${WORDS} ${CONVERSATIONAL}`.split(/\s+/).filter((w) => w.length > 0));
