package io.quotaflow.demo;

import java.util.Map;

/**
 * What {@code demo --scenario fallback} measured; written as JSON by {@code demo --report-json}.
 *
 * @param tickets           records published (the bundled set, one long ticket, the copies)
 * @param classified        distinct tickets in {@code tickets.classified} (read_committed)
 * @param deadLettered      distinct records in {@code tickets.dlq} (the set's invalid lines and its huge ticket)
 * @param duplicates        classifications seen more than once for the same ticket (must be 0)
 * @param byRoute           classified tickets by the route that answered them
 * @param fallbacks         tickets that changed route, by {@code from -> to (reason)}
 * @param cacheHits         tickets answered from the cache or by an identical ticket's call
 * @param calls             requests each route's provider received
 * @param http429           requests each route's provider refused with 429 (must be 0)
 * @param primaryRefused503 calls the primary refused while it was down
 * @param deadLettersByKind dead letters per {@code qf.error.kind}
 * @param elapsedMs         first publish to last outcome
 * @param costUsd           {@code quotaflow_cost_usd_total} over every route at the assumed gpt-4o-mini prices
 */
public record FallbackReport(long tickets, long classified, long deadLettered, long duplicates, Map<String, Long> byRoute,
                             Map<String, Long> fallbacks, long cacheHits, Map<String, Long> calls, Map<String, Long> http429,
                             long primaryRefused503, Map<String, Long> deadLettersByKind, long elapsedMs, double costUsd) {

    public FallbackReport(long tickets, long classified, long deadLettered, long duplicates, Map<String, Long> byRoute,
                          Map<String, Long> fallbacks, long cacheHits, Map<String, Long> calls, Map<String, Long> http429,
                          long primaryRefused503, Map<String, Long> deadLettersByKind, long elapsedMs) {
        this(tickets, classified, deadLettered, duplicates, byRoute, fallbacks, cacheHits, calls, http429, primaryRefused503,
                deadLettersByKind, elapsedMs, 0);
    }

    /** The same report with the run's spend. */
    public FallbackReport withCost(double usd) {
        return new FallbackReport(tickets, classified, deadLettered, duplicates, byRoute, fallbacks, cacheHits, calls, http429,
                primaryRefused503, deadLettersByKind, elapsedMs, usd);
    }

    /** Every record ended classified or (for invalid input) dead-lettered, no 429 and no duplicate. */
    public boolean clean() {
        return http429.values().stream().allMatch(v -> v == 0) && duplicates == 0 && classified + deadLettered == tickets;
    }

    public String render() {
        StringBuilder sb = DemoReport.head("fallback", tickets, classified, deadLettered, deadLettersByKind, duplicates,
                String.format("%,d by route %s", sum(calls), calls), String.format("%,d by route %s", sum(http429), http429));
        sb.append(String.format("  by route            %s%n", byRoute));
        sb.append(String.format("  fallbacks           %s%n", fallbacks.isEmpty() ? "none" : fallbacks));
        sb.append(String.format("  cache hits          %,d%n", cacheHits));
        sb.append(String.format("  primary refused     %,d calls with 503 while down%n", primaryRefused503));
        sb.append(String.format("  elapsed             %.1f s%n", elapsedMs / 1000.0));
        sb.append(String.format("  cost                $%.4f, $%.7f per classified ticket (assumed prices: $0.15 / $0.60 per Mtok)%n",
                costUsd, classified == 0 ? 0 : costUsd / classified));
        return sb.append(DemoReport.result(clean())).toString();
    }

    private static long sum(Map<String, Long> byRoute) {
        return byRoute.values().stream().mapToLong(Long::longValue).sum();
    }
}
