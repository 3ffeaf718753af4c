package io.quotaflow.demo;

import io.quotaflow.settings.Prices;

import java.util.Locale;
import java.util.Map;

/**
 * What a demo or benchmark run measured; written as JSON by {@code demo --report-json}.
 *
 * @param tickets          records published (valid tickets plus malformed lines sent on purpose)
 * @param classified       distinct tickets in {@code tickets.classified} (read_committed)
 * @param deadLettered     distinct records in {@code tickets.dlq}
 * @param duplicates       classifications seen more than once for the same ticket (must be 0)
 * @param calls            chat-completion requests the provider received
 * @param http429          requests the provider refused with 429
 * @param promptTokens     prompt tokens the provider counted
 * @param completionTokens completion tokens the provider counted
 * @param tokensAdmitted   tokens the provider's TPM bucket was charged (prompt + max_tokens)
 * @param elapsedMs        publish start to last outcome
 * @param utilization      admitted / allowed for the binding limit, over the busy span
 * @param bindingLimit     {@code TPM} or {@code RPM}
 * @param deadLettersByKind dead letters per {@code qf.error.kind}
 * @param scenario         {@code steady} or {@code outage}
 * @param retried          tickets sent to the retry topic (outage scenario)
 * @param replayed         dead letters replayed after the outage
 * @param http503          calls the provider refused during the outage
 * @param costUsd          what the answered calls' usage cost at {@link #prices} ({@code quotaflow_cost_usd_total})
 * @param prices           the prices the demo <em>assumed</em> (the simulator charges nothing)
 * @param handedOff        tickets handed to people on {@code tickets.handoff} before their deadline (outage scenario)
 * @param staleAnswers     results answered from an expired cache entry while the route could not serve (outage scenario)
 */
public record DemoReport(long tickets, long classified, long deadLettered, long duplicates, long calls, long http429,
                         long promptTokens, long completionTokens, long tokensAdmitted, long elapsedMs, double utilization,
                         String bindingLimit, Map<String, Long> deadLettersByKind, long rpm, long tpm,
                         String scenario, long retried, long replayed, long http503, double costUsd, Prices prices,
                         long handedOff, long staleAnswers) {

    public DemoReport(long tickets, long classified, long deadLettered, long duplicates, long calls, long http429,
                      long promptTokens, long completionTokens, long tokensAdmitted, long elapsedMs, double utilization,
                      String bindingLimit, Map<String, Long> deadLettersByKind, long rpm, long tpm) {
        this(tickets, classified, deadLettered, duplicates, calls, http429, promptTokens, completionTokens, tokensAdmitted,
                elapsedMs, utilization, bindingLimit, deadLettersByKind, rpm, tpm, "steady", 0, 0, 0, 0, Prices.NONE, 0, 0);
    }

    /** The same report with the run's cost at the (assumed) {@code assumed} prices. */
    public DemoReport withCost(double usd, Prices assumed) {
        return new DemoReport(tickets, classified, deadLettered, duplicates, calls, http429, promptTokens, completionTokens,
                tokensAdmitted, elapsedMs, utilization, bindingLimit, deadLettersByKind, rpm, tpm, scenario, retried, replayed,
                http503, usd, assumed, handedOff, staleAnswers);
    }

    /** {@link #costUsd} per classified ticket (0 with none classified). */
    public double costPerClassifiedUsd() {
        return classified == 0 ? 0 : costUsd / classified;
    }

    /** The same report, for the outage scenario. */
    public DemoReport withOutage(long retriedCount, long replayedCount, long refused) {
        return withOutage(retriedCount, replayedCount, refused, 0, 0);
    }

    /** The same report, for the outage scenario, with its hand-offs and stale answers. */
    public DemoReport withOutage(long retriedCount, long replayedCount, long refused, long handed, long stale) {
        return new DemoReport(tickets, classified, deadLettered, duplicates, calls, http429, promptTokens, completionTokens,
                tokensAdmitted, elapsedMs, utilization, bindingLimit, deadLettersByKind, rpm, tpm, "outage", retriedCount,
                replayedCount, refused, costUsd, prices, handed, stale);
    }

    /**
     * Whether every record ended classified, handed off, or (for invalid input) dead-lettered, with no 429 and no
     * duplicate.
     */
    public boolean clean() {
        long permanent = deadLettersByKind.entrySet().stream().filter(e -> !e.getKey().equals("retries-exhausted"))
                .mapToLong(Map.Entry::getValue).sum();
        boolean accounted = "outage".equals(scenario) ? classified + permanent + handedOff == tickets
                : classified + deadLettered + handedOff == tickets;
        return http429 == 0 && duplicates == 0 && accounted;
    }

    public String render() {
        StringBuilder sb = head(scenario, tickets, classified, deadLettered, deadLettersByKind, duplicates,
                String.format("%,d", calls), String.format("%,d", http429));
        sb.append(String.format("  prompt tokens       %,d%n", promptTokens));
        sb.append(String.format("  completion tokens   %,d%n", completionTokens));
        sb.append(String.format("  tokens admitted     %,d (prompt + max_tokens, what the TPM limit counts)%n", tokensAdmitted));
        sb.append(String.format("  elapsed             %.1f s%n", elapsedMs / 1000.0));
        sb.append(String.format("  limits              %,d RPM, %,d TPM; binding: %s%n", rpm, tpm, bindingLimit));
        if ("outage".equals(scenario)) {
            sb.append(String.format("  outage              %,d calls refused with 503, %,d tickets sent to tickets.retry, %,d dead letters replayed%n",
                    http503, retried, replayed));
            sb.append(String.format("  handed off          %,d interactive tickets to tickets.handoff before their deadline%n", handedOff));
            sb.append(String.format("  stale answers       %,d repeated tickets answered from an expired cache entry while the route was down%n",
                    staleAnswers));
        } else {
            sb.append(String.format("  utilisation         %.1f %% of the %s limit while busy%n", utilization * 100, bindingLimit));
        }
        if (prices.configured()) {
            sb.append(String.format(Locale.ROOT, "  cost                $%.4f, $%.7f per classified ticket (assumed prices: %s)%n",
                    costUsd, costPerClassifiedUsd(), prices.describe()));
        }
        return sb.append(result(clean())).toString();
    }

    /**
     * The lines every scenario's report starts with, in one format: {@code quotaflow demo report (SCENARIO)}, then
     * tickets published, classified, dead-lettered, duplicates, calls and HTTP 429 ({@link FallbackReport} too).
     */
    static StringBuilder head(String scenario, long tickets, long classified, long deadLettered, Map<String, Long> byKind,
                              long duplicates, String calls, String http429) {
        StringBuilder sb = new StringBuilder("quotaflow demo report (" + scenario + ")\n");
        sb.append(String.format("  tickets published   %,d%n", tickets));
        sb.append(String.format("  classified          %,d%n", classified));
        sb.append(String.format("  dead-lettered       %,d %s%n", deadLettered, byKind));
        sb.append(String.format("  duplicates          %,d%n", duplicates));
        sb.append(String.format("  calls               %s%n", calls));
        sb.append(String.format("  HTTP 429            %s%n", http429));
        return sb;
    }

    /** The line every scenario's report ends with. */
    static String result(boolean clean) {
        return clean ? "  result              CLEAN: every ticket accounted for once, no 429\n" : "  result              NOT CLEAN\n";
    }
}
