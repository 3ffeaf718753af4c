package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;

import java.util.List;
import java.util.Map;

/**
 * What the {@link BaselineRunner} (the fixed-batch baseline) did in a scenario, on a fresh simulator of
 * the same shape and the same tickets (or a prefix of them).
 *
 * @param tickets              tickets it was given
 * @param classified           tickets it got an answer for
 * @param lost                 tickets it did not: their group failed every try (or the answer left them out)
 * @param lostGroups           groups that failed every try
 * @param calls                requests it sent
 * @param http429              429s it got
 * @param failuresByStatus     other failed tries by status ({@code "400"}: e.g. context length exceeded; {@code "0"}: no answer)
 * @param contextLengthRefusals requests the simulator refused with 400 {@code context_length_exceeded}
 * @param busyMs               first call to last answer
 * @param ticketsPerBusyMinute classified tickets per minute of {@code busyMs}
 * @param tokensAdmitted       what the simulator's TPM bucket was charged (prompt + {@code max_tokens})
 * @param promptTokens         prompt tokens of admitted requests (the simulator's count)
 * @param completionTokens     completion tokens of admitted requests
 * @param reservedTokens       what the job reserved in its window (its estimates, one per group)
 * @param reportedTokens       {@code usage.total_tokens} of its 200s (what its window was corrected to)
 * @param windowWaits          reservations that waited for the window
 * @param steadyState          steady-state use of the binding limit (same window rule as quotaflow's)
 * @param wholeRun             whole-run use of the binding limit
 * @param categoryAccuracy     share of classified tickets whose category matches the generator's label
 * @param urgencyAccuracy      the same for urgency
 */
public record BaselineResult(long tickets, long classified, long lost, long lostGroups, long calls, long http429,
                             Map<String, Long> failuresByStatus, long contextLengthRefusals, long busyMs,
                             Double ticketsPerBusyMinute, long tokensAdmitted, long promptTokens, long completionTokens,
                             long reservedTokens, long reportedTokens, long windowWaits, SteadyStateUse steadyState,
                             WholeRunUse wholeRun, Double categoryAccuracy, Double urgencyAccuracy) {

    public BaselineResult {
        failuresByStatus = failuresByStatus == null ? Map.of() : Map.copyOf(failuresByStatus);
    }

    /** The baseline's figures: its outcome, what the provider saw, and its accuracy against the labels. */
    static BaselineResult of(Scenario scenario, List<GeneratedTicket> tickets, BaselineRunner.Outcome o, SimulatorStats stats) {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        long categoryHits = 0;
        long urgencyHits = 0;
        for (Map.Entry<String, GeneratedTicket.Label> e : o.answers().entrySet()) {
            GeneratedTicket.Label label = labels.get(e.getKey());
            if (label != null) {
                categoryHits += label.category().equals(e.getValue().category()) ? 1 : 0;
                urgencyHits += label.urgency().equals(e.getValue().urgency()) ? 1 : 0;
            }
        }
        long scored = o.answers().size();
        SteadyStateUse steady = SteadyStateUse.compute(stats.perSecond(), scenario.binding(), scenario.bindingLimit(),
                o.lastAnswerEpochMs());
        WholeRunUse whole = o.firstCallEpochMs() == 0 ? null
                : WholeRunUse.compute(stats, scenario.binding(), o.firstCallEpochMs(), o.lastCallEpochMs(), o.lastAnswerEpochMs());
        return new BaselineResult(o.tickets(), o.classified(), o.lost(), o.lostGroups(), o.calls(), o.http429(), o.failuresByStatus(),
                stats.contextLengthRefusals(), o.busyMs(), WholeRunUse.perMinute(o.classified(), o.busyMs()), stats.tokensAdmitted(),
                stats.promptTokens(), stats.completionTokens(), o.reservedTokens(), o.reportedTokens(), o.windowWaits(), steady, whole,
                scored == 0 ? null : categoryHits / (double) scored, scored == 0 ? null : urgencyHits / (double) scored);
    }
}
