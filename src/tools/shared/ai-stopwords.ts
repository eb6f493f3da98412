/**
 * English stop words: function words that carry no topic (articles, pronouns, auxiliaries,
 * prepositions, conjunctions). Keyword extraction, summaries and similarity skip them so that
 * "the" and "is" never look like what a text is about.
 */
export const englishStopWords: ReadonlySet<string> = new Set(
  `a about above after again against all almost also although always am among an and another any anybody anyone
  anything anyway anywhere are aren't around as at be became because become becomes been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't done down during
  each either else enough etc even ever every everyone everything few for from further get gets getting go goes
  going got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself
  his how how's however i i'd i'll i'm i've if in into is isn't it it's its itself just least less let's like
  made make many may me might mine more most much must mustn't my myself neither never no nor not nothing now of
  off often on once one only onto or other others otherwise ought our ours ourselves out over own per perhaps
  quite rather really same say says said shall shan't she she'd she'll she's should shouldn't since so some
  somebody someone something sometimes still such than that that's the their theirs them themselves then there
  there's these they they'd they'll they're they've thing things this those though through thus to too toward
  towards two under until up upon us use used uses using very via was wasn't we we'd we'll we're we've well were
  weren't what what's whatever when when's where where's whether which while who who's whom whose why why's will
  with within without won't would wouldn't yet you you'd you'll you're you've your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);
