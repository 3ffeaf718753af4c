package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * How soon a moved scope runs at its key's full rate again, not only when it admits its first call:
 * per scope of the killed instance, the seconds from its restore (its first admission after the kill)
 * until a 10-second window of its provider's admissions holds at least {@value #FULL_SHARE} of what
 * its key admits in 10 s; each scope's use over the run; and each scope's admitted tokens per 10 s
 * (the table). Pure arithmetic over the {@link ScopeTimeline}s.
 *
 * @param secondsToFullRate per scope of the killed instance, seconds from its restore to the start of the first 10-second
 *                          window at or above {@value #FULL_SHARE} of its key (null: none before its work ran out)
 * @param useAfterRestore   per scope of the killed instance, its use from its restore to its own last admission
 * @param useRunPerScope    each scope's use from the run's first call to the last (its starting level once)
 * @param tokensPer10s      each scope's admitted tokens per 10 s from the run's first call (row i: scope i)
 * @param useOwnWork        the keys' use, each from the run's first call to its own last admission (its starting level
 *                          once), pooled: unlike the use over the run, a key whose scope ran out of work while others
 *                          finished is not counted idle for it
 * @param useBound          the most the use over the run could be with the same tokens per key and the same hand-over
 *                          ({@link #bound}): what the configured limits (ceilings), the safety factor, the local burst and
 *                          the moved scopes' time without an owner leave, before any loss of the pipeline's own
 */
public record FullRateFigures(Map<Integer, Double> secondsToFullRate, Map<Integer, Double> useAfterRestore,
                              List<Double> useRunPerScope, List<List<Long>> tokensPer10s, double useOwnWork, double useBound) {

    /** quotaflow's defaults the bound assumes: {@code quota.safety-factor} and {@code quota.burst-seconds}, as the instances run them. */
    static final double SAFETY_FACTOR = io.quotaflow.settings.QuotaSettings.ofDefaults().safetyFactor();
    static final double BURST_SECONDS = io.quotaflow.settings.QuotaSettings.ofDefaults().burstSeconds();

    /** A 10-second window at or above this share of the key's rate is full rate. */
    static final double FULL_SHARE = 0.9;
    static final long WINDOW_MS = 10_000;
    /** Windows start every this many ms from the restore on. */
    static final long STEP_MS = 500;

    public FullRateFigures {
        secondsToFullRate = Collections.unmodifiableMap(new TreeMap<>(secondsToFullRate));
        useAfterRestore = Collections.unmodifiableMap(new TreeMap<>(useAfterRestore));
        useRunPerScope = List.copyOf(useRunPerScope);
        tokensPer10s = tokensPer10s.stream().map(List::copyOf).toList();
    }

    static FullRateFigures compute(List<ScopeTimeline> timelines, List<FailoverFigures.Quota> quotas, FailoverFigures f) {
        return compute(timelines, quotas, f, true);
    }

    /** {@code ceilings}: the routes set their limits ({@link #bound}); otherwise the limits are learned from the headers. */
    static FullRateFigures compute(List<ScopeTimeline> timelines, List<FailoverFigures.Quota> quotas, FailoverFigures f, boolean ceilings) {
        Map<Integer, Double> seconds = new TreeMap<>();
        Map<Integer, Double> after = new TreeMap<>();
        for (int scope : f.victimScopes()) {
            ScopeTimeline t = timelines.get(scope);
            OptionalLong restore = t.firstAdmissionAfter(f.killMs() + FailoverFigures.KILL_MARGIN_MS);
            OptionalLong last = t.lastAdmissionMs();
            if (restore.isEmpty() || last.isEmpty()) {
                seconds.put(scope, null);
                after.put(scope, Double.NaN);
                continue;
            }
            double full = quotas.get(scope).tpm() / 60_000.0 * WINDOW_MS * FULL_SHARE;
            Double found = null;
            // a window must end before the scope's work ran out: its tail is no measure of its rate
            for (long from = restore.getAsLong(); from + WINDOW_MS <= last.getAsLong(); from += STEP_MS) {
                if (t.tokensBetween(from, from + WINDOW_MS) >= full) {
                    found = (from - restore.getAsLong()) / 1000.0;
                    break;
                }
            }
            seconds.put(scope, found);
            after.put(scope, use(t, quotas.get(scope), restore.getAsLong() - 1, last.getAsLong(), false));
        }
        List<Double> run = new ArrayList<>();
        List<List<Long>> per10 = new ArrayList<>();
        double ownAdmitted = 0;
        double ownAdmissible = 0;
        for (int i = 0; i < timelines.size(); i++) {
            ScopeTimeline t = timelines.get(i);
            run.add(use(t, quotas.get(i), f.firstCallMs() - 1, f.lastCallMs(), true));
            long ownLast = Math.min(f.lastCallMs(), t.lastAdmissionMs().orElse(f.firstCallMs()));
            ownAdmitted += t.tokensBetween(f.firstCallMs() - 1, ownLast);
            ownAdmissible += quotas.get(i).tpm() * (ownLast - f.firstCallMs() + 1) / 60_000.0 + quotas.get(i).startTokens();
            List<Long> row = new ArrayList<>();
            for (long from = f.firstCallMs() - 1; from < f.lastCallMs(); from += WINDOW_MS) {
                row.add(t.tokensBetween(from, from + WINDOW_MS));
            }
            per10.add(row);
        }
        List<Long> work = new ArrayList<>();
        Map<Integer, Long> gaps = new TreeMap<>();
        for (int i = 0; i < timelines.size(); i++) {
            work.add(timelines.get(i).tokensBetween(f.firstCallMs() - 1, f.lastCallMs()));
        }
        for (int scope : f.victimScopes()) {
            timelines.get(scope).firstAdmissionAfter(f.killMs() + FailoverFigures.KILL_MARGIN_MS)
                    .ifPresent(restore -> gaps.put(scope, restore - f.killMs()));
        }
        return new FullRateFigures(seconds, after, run, per10, ownAdmissible > 0 ? ownAdmitted / ownAdmissible : Double.NaN,
                bound(work, quotas, gaps, ceilings));
    }

    /**
     * The most the use over the run could be, the keys admitting {@code work} tokens each and the moved ones
     * ({@code gapsMs}: key → ms from the kill to its first admission after it) idle for their gap: each key runs from the
     * run's first call at the client's most under a configured limit (a ceiling: its local burst at once, then the limit
     * × the safety factor, never the provider's larger bucket), a moved key's gap less the burst its new owner is credited,
     * and the run ends when the last key's work does; the keys' admissible tokens are their starting bucket and their
     * refill until then, as in the use over the run. With limits learned from the headers ({@code ceilings} false) a key
     * spends the provider's starting bucket at once and a moved key's gap is shortened by what that bucket holds again.
     */
    static double bound(List<Long> work, List<FailoverFigures.Quota> quotas, Map<Integer, Long> gapsMs) {
        return bound(work, quotas, gapsMs, true);
    }

    static double bound(List<Long> work, List<FailoverFigures.Quota> quotas, Map<Integer, Long> gapsMs, boolean ceilings) {
        double endMs = 0;
        for (int i = 0; i < work.size(); i++) {
            double ratePerMs = quotas.get(i).tpm() * SAFETY_FACTOR / 60_000.0;
            double burst = ceilings ? ratePerMs * BURST_SECONDS * 1_000 : quotas.get(i).startTokens();
            double busyMs = Math.max(0, work.get(i) - burst) / ratePerMs;
            double idleMs = Math.max(0, gapsMs.getOrDefault(i, 0L) - burst / ratePerMs);
            endMs = Math.max(endMs, busyMs + idleMs);
        }
        double admitted = 0;
        double admissible = 0;
        for (int i = 0; i < work.size(); i++) {
            admitted += work.get(i);
            admissible += quotas.get(i).tpm() * endMs / 60_000.0 + quotas.get(i).startTokens();
        }
        return admissible > 0 ? admitted / admissible : Double.NaN;
    }

    private static double use(ScopeTimeline t, FailoverFigures.Quota q, long fromMs, long toMs, boolean withStart) {
        double admissible = q.tpm() * (toMs - fromMs) / 60_000.0 + (withStart ? q.startTokens() : 0);
        return toMs <= fromMs || admissible <= 0 ? Double.NaN : t.tokensBetween(fromMs, toMs) / admissible;
    }

    /** The slowest moved scope's seconds to full rate; null when one never got there (or there were none). */
    public Double maxSecondsToFullRate() {
        if (secondsToFullRate.isEmpty() || secondsToFullRate.containsValue(null)) {
            return null;
        }
        return secondsToFullRate.values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** {@code s1 2.5 s (91.0 %), s4 never (70.2 %)}: each moved scope's seconds to full rate and its use after its restore. */
    public String text() {
        List<String> parts = new ArrayList<>();
        secondsToFullRate.forEach((scope, s) -> parts.add("s" + scope + " " + (s == null ? "never" : String.format(Locale.ROOT,
                "%.1f s", s)) + " (" + FailoverResult.pct(useAfterRestore.get(scope)) + ")"));
        return parts.isEmpty() ? "–" : String.join(", ", parts);
    }

    /** Each scope's use over the run: {@code s0 97.1 %, s1 ...}. */
    public String perScopeText() {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < useRunPerScope.size(); i++) {
            parts.add("s" + i + " " + FailoverResult.pct(useRunPerScope.get(i)));
        }
        return String.join(", ", parts) + "; the keys over each one's own work (the run's first call to its last): "
                + FailoverResult.pct(useOwnWork) + "; the most the run could reach with these keys' work and hand-over: "
                + FailoverResult.pct(useBound);
    }

    /** The admitted tokens per 10 s, one row per window, one column per scope, as Markdown. */
    public String tableMarkdown() {
        StringBuilder sb = new StringBuilder("| s |");
        for (int i = 0; i < tokensPer10s.size(); i++) {
            sb.append(" s").append(i).append(" |");
        }
        sb.append("\n|---|").append("---:|".repeat(tokensPer10s.size())).append('\n');
        int rows = tokensPer10s.stream().mapToInt(List::size).max().orElse(0);
        for (int r = 0; r < rows; r++) {
            sb.append("| ").append(r * 10).append(" |");
            for (List<Long> row : tokensPer10s) {
                sb.append(' ').append(r < row.size() ? String.format(Locale.ROOT, "%,d", row.get(r)) : "").append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
