package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The failover scenario's figures, computed from what the six providers admitted over time
 * ({@link ScopeTimeline}) and who owned each quota scope's dispatcher task ({@link OwnerSnapshot}).
 * Pure arithmetic; {@link FailoverRunner} gathers the inputs.
 *
 * <ul>
 *   <li><b>seconds to admit again</b>, per scope of the killed instance: from the kill to the first
 *       call its provider admitted after it (necessarily from a live instance: a dead one sends
 *       nothing);</li>
 *   <li><b>use</b> of the six quotas: tokens admitted over the most the six keys would admit,
 *       {@code TPM × seconds / 60} each, plus their starting level once for a span that starts
 *       at the first call: over the run (first call to last call sent), before the kill and after
 *       it, and after it for the killed instance's scopes ("moved") and the others ("kept")
 *       apart;</li>
 *   <li><b>owner changes</b> after the kill: how often a dispatcher task went to another instance
 *       (a static member back in time keeps its tasks: 0; a failover and a return: 2 per scope; a
 *       shuffle: more).</li>
 * </ul>
 *
 * @param firstCallMs        the run's first admission (any scope)
 * @param killMs             when the instance was killed
 * @param lastCallMs         the run's last admission (any scope)
 * @param victimScopes       indices of the scopes the killed instance owned at the kill
 * @param secondsToAdmit     per scope of the killed instance, seconds from the kill to its next admission (null: none)
 * @param ownerAfter         per scope of the killed instance, who owned it when it admitted again (null: unknown)
 * @param useRun             the six quotas' use from the first call to the last
 * @param useBefore          their use from the first call to the kill
 * @param useAfter           their use from the kill to the last call
 * @param useAfterMoved      the killed instance's scopes' use from the kill to the last call
 * @param useAfterKept       the other scopes' use from the kill to the last call
 * @param ownerChanges       dispatcher tasks that went to another instance after the kill (every change counted)
 * @param victimScopesBack   of the killed instance's scopes, how many it owned again at the end (restart only)
 */
public record FailoverFigures(long firstCallMs, long killMs, long lastCallMs, List<Integer> victimScopes,
                              Map<Integer, Double> secondsToAdmit, Map<Integer, String> ownerAfter, double useRun,
                              double useBefore, double useAfter, double useAfterMoved, double useAfterKept, int ownerChanges,
                              int victimScopesBack) {

    /** Admissions this soon after the kill may be the killed instance's own last calls, sampled late: not counted. */
    static final long KILL_MARGIN_MS = 250;

    /** Who owned each scope's dispatcher task (scope index → instance label) at {@code epochMs}. */
    public record OwnerSnapshot(long epochMs, Map<Integer, String> owners) {
        public OwnerSnapshot {
            owners = Map.copyOf(owners);
        }
    }

    /** The limits of one scope's provider. */
    record Quota(long tpm, double startTokens) {
    }

    public FailoverFigures {
        victimScopes = List.copyOf(victimScopes);
        secondsToAdmit = java.util.Collections.unmodifiableMap(new TreeMap<>(secondsToAdmit));
        ownerAfter = java.util.Collections.unmodifiableMap(new TreeMap<>(ownerAfter));
    }

    /**
     * @param timelines scope i's admissions
     * @param quotas    scope i's limits
     * @param killMs    when the instance was killed
     * @param victim    the killed instance's label
     * @param owners    ownership snapshots in time order
     */
    static FailoverFigures compute(List<ScopeTimeline> timelines, List<Quota> quotas, long killMs, String victim,
                                   List<OwnerSnapshot> owners) {
        Objects.requireNonNull(victim, "victim");
        if (timelines.size() != quotas.size()) {
            throw new IllegalArgumentException("one quota per scope: " + timelines.size() + " timelines, " + quotas.size() + " quotas");
        }
        long first = timelines.stream().map(ScopeTimeline::firstAdmissionMs).filter(OptionalLong::isPresent)
                .mapToLong(OptionalLong::getAsLong).min().orElse(killMs);
        long last = timelines.stream().map(ScopeTimeline::lastAdmissionMs).filter(OptionalLong::isPresent)
                .mapToLong(OptionalLong::getAsLong).max().orElse(killMs);
        List<Integer> victims = victimScopes(owners, killMs, victim);
        Map<Integer, Double> seconds = new LinkedHashMap<>();
        Map<Integer, String> ownerAfter = new LinkedHashMap<>();
        for (int scope : victims) {
            OptionalLong again = timelines.get(scope).firstAdmissionAfter(killMs + KILL_MARGIN_MS);
            seconds.put(scope, again.isPresent() ? (again.getAsLong() - killMs) / 1000.0 : null);
            ownerAfter.put(scope, again.isPresent() ? ownerAt(owners, scope, again.getAsLong()) : null);
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < timelines.size(); i++) {
            all.add(i);
        }
        List<Integer> kept = all.stream().filter(i -> !victims.contains(i)).toList();
        double useRun = use(timelines, quotas, all, first - 1, last, true);
        double useBefore = use(timelines, quotas, all, first - 1, killMs, true);
        double useAfter = use(timelines, quotas, all, killMs, last, false);
        double moved = use(timelines, quotas, victims, killMs, last, false);
        double keptUse = use(timelines, quotas, kept, killMs, last, false);
        return new FailoverFigures(first, killMs, last, victims, seconds, ownerAfter, useRun, useBefore, useAfter, moved, keptUse,
                ownerChanges(owners, killMs), backAtEnd(owners, victims, victim));
    }

    /** The scopes {@code victim} owned in the last snapshot before the kill. */
    static List<Integer> victimScopes(List<OwnerSnapshot> owners, long killMs, String victim) {
        OwnerSnapshot before = null;
        for (OwnerSnapshot s : owners) {
            if (s.epochMs() <= killMs) {
                before = s;
            }
        }
        if (before == null) {
            return List.of();
        }
        return before.owners().entrySet().stream().filter(e -> victim.equals(e.getValue())).map(Map.Entry::getKey).sorted().toList();
    }

    /** The instance that owns the most scopes in {@code snapshot} (the first label in order on a tie); null when none. */
    static String busiest(OwnerSnapshot snapshot) {
        Map<String, Integer> counts = new TreeMap<>();
        snapshot.owners().values().forEach(o -> counts.merge(o, 1, Integer::sum));
        String best = null;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (best == null || e.getValue() > counts.get(best)) {
                best = e.getKey();
            }
        }
        return best;
    }

    /** Who owned {@code scope} in the first snapshot at or after {@code epochMs} (else the last before it). */
    static String ownerAt(List<OwnerSnapshot> owners, int scope, long epochMs) {
        String before = null;
        for (OwnerSnapshot s : owners) {
            String o = s.owners().get(scope);
            if (o == null) {
                continue;
            }
            if (s.epochMs() >= epochMs) {
                return o;
            }
            before = o;
        }
        return before;
    }

    /** Changes of a scope's owner between consecutive snapshots after the kill (a snapshot without an owner skipped). */
    static int ownerChanges(List<OwnerSnapshot> owners, long killMs) {
        Map<Integer, String> current = new TreeMap<>();
        int changes = 0;
        for (OwnerSnapshot s : owners) {
            for (Map.Entry<Integer, String> e : s.owners().entrySet()) {
                String previous = current.put(e.getKey(), e.getValue());
                if (s.epochMs() > killMs && previous != null && !previous.equals(e.getValue())) {
                    changes++;
                }
            }
        }
        return changes;
    }

    /** Of {@code victims}, how many {@code victim} owned in the last snapshot that names their owner. */
    static int backAtEnd(List<OwnerSnapshot> owners, List<Integer> victims, String victim) {
        return (int) victims.stream().filter(v -> victim.equals(ownerAt(owners, v, Long.MAX_VALUE))).count();
    }

    /** Tokens admitted in {@code (fromMs, toMs]} over what the scopes' keys would admit then (plus their start level). */
    private static double use(List<ScopeTimeline> timelines, List<Quota> quotas, List<Integer> scopes, long fromMs, long toMs,
                              boolean withStart) {
        if (scopes.isEmpty() || toMs <= fromMs) {
            return Double.NaN;
        }
        double admitted = 0;
        double admissible = 0;
        for (int i : scopes) {
            admitted += timelines.get(i).tokensBetween(fromMs, toMs);
            admissible += quotas.get(i).tpm() * (toMs - fromMs) / 60_000.0 + (withStart ? quotas.get(i).startTokens() : 0);
        }
        return admissible > 0 ? admitted / admissible : Double.NaN;
    }

    /** The slowest of the killed instance's scopes, in seconds; null when one never admitted again (or there were none). */
    public Double maxSecondsToAdmit() {
        if (secondsToAdmit.isEmpty() || secondsToAdmit.containsValue(null)) {
            return null;
        }
        return secondsToAdmit.values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** Seconds from the first call to the last. */
    public double busySeconds() {
        return Math.max(0, lastCallMs - firstCallMs) / 1000.0;
    }

    /** Seconds from the first call to the kill. */
    public double killAtSeconds() {
        return (killMs - firstCallMs) / 1000.0;
    }

    /** Whether every scope of the killed instance admitted again within {@code seconds}. */
    public boolean allWithin(double seconds) {
        Double max = maxSecondsToAdmit();
        return max != null && max <= seconds;
    }

}
