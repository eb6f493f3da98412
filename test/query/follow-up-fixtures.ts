/**
 * A knowledge base for follow-up tests: after "Do you ship to Austria?",
 * "And how long does that take?" must be answered from the shipping record,
 * while the same words alone match the repairs record best. One record per
 * file, so `sourceName` says which record an answer came from.
 */
export const followUpRecords: Record<string, string> = {
  'shipping.md': '# Shipping\n\nWe ship to every EU country, including Austria. Parcels arrive within three to five working days.\n',
  'repairs.md': '# Repairs\n\nOur workshop repairs frames and wheels. How long a repair takes depends on the parts: usually about two weeks.\n',
  'returns.md': '# Returns\n\nYou can return any unused item within 30 days for a full refund.\n',
  'hours.md': '# Opening hours\n\nThe showroom is open Monday to Saturday from 9:00 to 18:00.\n',
};
export const firstQuestion = 'Do you ship to Austria?';
export const followUp = 'And how long does that take?';
