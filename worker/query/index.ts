// Public API of the filter language (the typed filter box and `mrtr-inspector` filters):
// parse text into terms, match conversations, describe terms, build searchable text.
export { parseFilter } from './parse-filter.js';
export { matchesFilter, globMatch, findingsByConversation } from './match-filter.js';
export { describeFilter } from './describe-filter.js';
export { searchText, SEARCH_TEXT_PER_EXCHANGE, type SearchTextOptions } from './search-text.js';
export {
  FILTER_KEYS, STATUS_VALUES, SEVERITY_VALUES, ERA_VALUES, HAS_VALUES,
  type FilterTerm, type FilterKind, type FilterSubject, type FilterError, type FilterParse, type CompareOp, type HasFlag,
} from './filter-terms.js';
