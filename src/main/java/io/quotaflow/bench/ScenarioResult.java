package io.quotaflow.bench;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one scenario measured (or, for the fixed-batch comparison, computed). Fields that a
 * computed row cannot have are null.
 *
 * @param key                      scenario key ({@code a} …)
 * @param scenario                 scenario name
 * @param description              its one-line description
 * @param computed                 true for a row computed offline rather than run
 * @param instances                pipeline instances
 * @param rpm                      requests per minute (simulator and limiter)
 * @param tpm                      tokens per minute (simulator and limiter)
 * @param simBurstSeconds          the simulator's burst window
 * @param binding                  the limit the scenario is designed to bind
 * @param tickets                  tickets published
 * @param classified               distinct tickets classified (read_committed)
 * @param deadLettered             distinct tickets dead-lettered
 * @param deadLettersByKind        dead letters by {@code qf.error.kind}
 * @param duplicates               classifications seen more than once (must be 0)
 * @param calls                    chat-completion requests the provider received (any status)
 * @param http429                  requests the provider refused with 429
 * @param requestsAdmitted         requests the provider admitted
 * @param promptTokens             prompt tokens of admitted requests
 * @param completionTokens         completion tokens of admitted requests
 * @param tokensAdmitted           what the TPM bucket was charged (prompt + {@code max_tokens})
 * @param wallTimeMs               publish start to the last outcome
 * @param steadyState              steady-state use of the binding limit
 * @param otherLimitUse            use of the other limit over the same window
 * @param categoryAccuracy         share of classified tickets whose category matches the generator's label
 * @param urgencyAccuracy          the same for urgency
 * @param tokensPerTicketAdmitted  tokensAdmitted / tickets
 * @param tokensPerTicketUsed      (prompt + completion) / tickets
 * @param ticketsPerCall           tickets per admitted request (classified + retried ones count once per call)
 * @param notes                    anything a reader of the figures should know
 */
public record ScenarioResult(
        String key,
        String scenario,
        String description,
        boolean computed,
        int instances,
        long rpm,
        long tpm,
        double simBurstSeconds,
        Binding binding,
        long tickets,
        Long classified,
        Long deadLettered,
        Map<String, Long> deadLettersByKind,
        Long duplicates,
        Long calls,
        Long http429,
        long requestsAdmitted,
        long promptTokens,
        long completionTokens,
        long tokensAdmitted,
        Long wallTimeMs,
        SteadyStateUse steadyState,
        Double otherLimitUse,
        Double categoryAccuracy,
        Double urgencyAccuracy,
        double tokensPerTicketAdmitted,
        double tokensPerTicketUsed,
        double ticketsPerCall,
        List<String> notes) {

    public ScenarioResult {
        Objects.requireNonNull(scenario, "scenario");
        deadLettersByKind = deadLettersByKind == null ? null : Map.copyOf(deadLettersByKind);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** Every ticket classified or dead-lettered, no duplicate, no 429 (true for a computed row). */
    public boolean clean() {
        if (computed) {
            return true;
        }
        return http429 != null && http429 == 0 && duplicates != null && duplicates == 0 && classified != null
                && deadLettered != null && classified + deadLettered == tickets;
    }
}
