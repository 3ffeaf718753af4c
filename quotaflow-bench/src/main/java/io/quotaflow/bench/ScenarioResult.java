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
 * @param figures                  losses, whole-run use, tickets per busy minute, the baseline, and the
 *                                 figures of the overhead, interactive and replay scenarios
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
        List<String> notes,
        ScenarioFigures figures) {

    public ScenarioResult {
        Objects.requireNonNull(scenario, "scenario");
        deadLettersByKind = deadLettersByKind == null ? null : Map.copyOf(deadLettersByKind);
        notes = notes == null ? List.of() : List.copyOf(notes);
        figures = figures == null ? ScenarioFigures.NONE : figures;
    }

    /** A row without the further figures (the original columns only). */
    public ScenarioResult(String key, String scenario, String description, boolean computed, int instances, long rpm, long tpm,
                          double simBurstSeconds, Binding binding, long tickets, Long classified, Long deadLettered,
                          Map<String, Long> deadLettersByKind, Long duplicates, Long calls, Long http429, long requestsAdmitted,
                          long promptTokens, long completionTokens, long tokensAdmitted, Long wallTimeMs, SteadyStateUse steadyState,
                          Double otherLimitUse, Double categoryAccuracy, Double urgencyAccuracy, double tokensPerTicketAdmitted,
                          double tokensPerTicketUsed, double ticketsPerCall, List<String> notes) {
        this(key, scenario, description, computed, instances, rpm, tpm, simBurstSeconds, binding, tickets, classified, deadLettered,
                deadLettersByKind, duplicates, calls, http429, requestsAdmitted, promptTokens, completionTokens, tokensAdmitted,
                wallTimeMs, steadyState, otherLimitUse, categoryAccuracy, urgencyAccuracy, tokensPerTicketAdmitted,
                tokensPerTicketUsed, ticketsPerCall, notes, ScenarioFigures.NONE);
    }

    /** The same result with other figures. */
    public ScenarioResult withFigures(ScenarioFigures value) {
        return new ScenarioResult(key, scenario, description, computed, instances, rpm, tpm, simBurstSeconds, binding, tickets,
                classified, deadLettered, deadLettersByKind, duplicates, calls, http429, requestsAdmitted, promptTokens,
                completionTokens, tokensAdmitted, wallTimeMs, steadyState, otherLimitUse, categoryAccuracy, urgencyAccuracy,
                tokensPerTicketAdmitted, tokensPerTicketUsed, ticketsPerCall, notes, value);
    }

    /** The same result with one more note. */
    public ScenarioResult withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(note);
        return new ScenarioResult(key, scenario, description, computed, instances, rpm, tpm, simBurstSeconds, binding, tickets,
                classified, deadLettered, deadLettersByKind, duplicates, calls, http429, requestsAdmitted, promptTokens,
                completionTokens, tokensAdmitted, wallTimeMs, steadyState, otherLimitUse, categoryAccuracy, urgencyAccuracy,
                tokensPerTicketAdmitted, tokensPerTicketUsed, ticketsPerCall, more, figures);
    }

    /**
     * Every ticket classified or dead-lettered, no duplicate, no 429 (true for a computed row); for a
     * replay: every dead letter back on its origin topic exactly once. The baseline's own 429s and
     * losses do not count: they are what it is measured for.
     */
    public boolean clean() {
        if (computed) {
            return true;
        }
        ScenarioFigures.Replay replay = figures.replay();
        if (replay != null) {
            return replay.found() == replay.deadLetters() && replay.duplicates() == 0 && replay.replayed() == replay.deadLetters();
        }
        return http429 != null && http429 == 0 && duplicates != null && duplicates == 0 && classified != null
                && deadLettered != null && classified + deadLettered == tickets;
    }
}
