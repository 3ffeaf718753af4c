package io.quotaflow.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What the chaos scenario measured: the fate of every ticket (lost, duplicated, classified,
 * dead-lettered), what the provider saw, and how long each kill took to recover from.
 *
 * @param key                scenario key ({@code chaos})
 * @param scenario           scenario name
 * @param description        its one-line description
 * @param rpm                requests per minute (simulator and limiter)
 * @param tpm                tokens per minute (simulator and limiter)
 * @param simBurstSeconds    the simulator's burst window
 * @param plan               what the plan does, in words
 * @param accounting         the fate of the published tickets
 * @param calls              chat-completion requests the provider received
 * @param http429            requests the provider refused with 429
 * @param requestsAdmitted   requests the provider admitted
 * @param promptTokens       prompt tokens of admitted requests
 * @param completionTokens   completion tokens of admitted requests
 * @param tokensAdmitted     what the TPM bucket was charged
 * @param categoryAccuracy   share of results whose category matches the generator's label
 * @param urgencyAccuracy    the same for urgency
 * @param wallTimeMs         first publish to the last ticket accounted for (or to the time-out)
 * @param timedOut           the run gave up before every ticket was accounted for
 * @param coldStartMs        first pipeline start to streams RUNNING, for comparison with the restarts
 * @param disruptions        the kills performed, in order
 * @param notPerformed       planned kills that did not happen (the run finished first), in words
 * @param logDir             where the child processes' logs are
 * @param notes              anything a reader of the figures should know
 */
public record ChaosResult(String key, String scenario, String description, long rpm, long tpm, double simBurstSeconds,
                          String plan, ChaosAccounting accounting, long calls, long http429, long requestsAdmitted,
                          long promptTokens, long completionTokens, long tokensAdmitted, Double categoryAccuracy,
                          Double urgencyAccuracy, long wallTimeMs, boolean timedOut, Long coldStartMs,
                          List<Disruption> disruptions, List<String> notPerformed, String logDir, List<String> notes) {

    /** The target for recovery: back to work within 10 s of a restart. */
    public static final long RECOVERY_TARGET_MS = 10_000;

    /**
     * One kill and the recovery from it. Times are milliseconds; null when not observed.
     *
     * @param index           1-based, over all kills
     * @param target          what was killed
     * @param atShare         the planned share of tickets accounted for
     * @param atMs            when, since the first publish
     * @param accountedAtKill tickets accounted for at the kill
     * @param publishedAtKill tickets published at the kill (the difference was in flight)
     * @param downMs          kill to restart (the new process spawned)
     * @param readyMs         restart to ready: streams RUNNING for the pipeline, "broker ready" for the broker
     * @param firstResultMs   restart to the first result (or dead letter) committed after the kill
     * @param restarts        processes spawned to get it back (more than 1: a restart failed and was retried)
     */
    public record Disruption(int index, ChaosPlan.Target target, double atShare, long atMs, long accountedAtKill,
                             long publishedAtKill, long downMs, Long readyMs, Long firstResultMs, int restarts) {

        public Disruption {
            Objects.requireNonNull(target, "target");
        }

        /** Restart to the first new result: when the system is doing its job again. */
        @JsonIgnore
        public OptionalLong recoveryMs() {
            return firstResultMs == null ? OptionalLong.empty() : OptionalLong.of(firstResultMs);
        }

        @JsonProperty
        public long inFlightAtKill() {
            return publishedAtKill - accountedAtKill;
        }

        /** {@code #1 pipeline SIGKILL at 15 % (0:21, 300 of 2,000 accounted for, 700 in flight): ...}. */
        public String describe(long tickets) {
            String ready = target == ChaosPlan.Target.PIPELINE ? "streams RUNNING" : "broker ready";
            return String.format(Locale.ROOT, "#%d %s SIGKILL at %d %% (%s in, %,d of %,d accounted for, %,d in flight): "
                            + "restarted %s later%s; %s %s after restart; first new result %s after restart",
                    index, target.label(), Math.round(atShare * 100), ResultTable.duration(atMs), accountedAtKill, tickets,
                    inFlightAtKill(), seconds(downMs), restarts > 1 ? " (" + restarts + " attempts)" : "", ready,
                    readyMs == null ? "not seen" : seconds(readyMs), firstResultMs == null ? "not seen" : seconds(firstResultMs));
        }
    }

    public ChaosResult {
        Objects.requireNonNull(accounting, "accounting");
        disruptions = List.copyOf(disruptions);
        notPerformed = notPerformed == null ? List.of() : List.copyOf(notPerformed);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public long tickets() {
        return accounting.published();
    }

    @JsonProperty
    public long lost() {
        return accounting.lost();
    }

    @JsonProperty
    public long duplicated() {
        return accounting.duplicated();
    }

    /** 0 lost and 0 duplicated: what decides the exit code. */
    @JsonProperty
    public boolean passed() {
        return accounting.clean();
    }

    /** Every planned kill performed and every one of them recovered from within {@link #RECOVERY_TARGET_MS}. */
    @JsonProperty
    public boolean recoveryTargetMet() {
        return notPerformed.isEmpty() && !disruptions.isEmpty()
                && disruptions.stream().allMatch(d -> d.recoveryMs().isPresent() && d.recoveryMs().getAsLong() <= RECOVERY_TARGET_MS);
    }

    /** The longest recovery (restart to first new result) of the kills of {@code target}, null when none was measured. */
    public Long maxRecoveryMs(ChaosPlan.Target target) {
        return disruptions.stream().filter(d -> target == null || d.target() == target).map(Disruption::firstResultMs)
                .filter(Objects::nonNull).max(Long::compare).orElse(null);
    }

    /** The summary block printed at the end of {@code quotaflow bench --scenario chaos}. */
    public String report() {
        String nl = System.lineSeparator();
        StringBuilder sb = new StringBuilder();
        sb.append("quotaflow chaos report").append(nl);
        line(sb, "plan", plan);
        line(sb, "limits", String.format(Locale.ROOT, "%,d RPM, %,d TPM (simulator burst %s s)", rpm, tpm, number(simBurstSeconds)));
        accountingLines(sb);
        line(sb, "HTTP 429", Long.toString(http429));
        line(sb, "calls", String.format(Locale.ROOT, "%,d (%,d admitted)", calls, requestsAdmitted));
        line(sb, "wall time", ResultTable.duration(wallTimeMs) + (timedOut ? " (TIMED OUT before every ticket was accounted for)" : ""));
        if (coldStartMs != null) {
            line(sb, "cold start", "first pipeline start to streams RUNNING in " + seconds(coldStartMs));
        }
        sb.append("  kills").append(nl);
        for (Disruption d : disruptions) {
            sb.append("    ").append(d.describe(accounting.published())).append(nl);
        }
        for (String s : notPerformed) {
            sb.append("    not performed: ").append(s).append(nl);
        }
        line(sb, "recovery", recoverySummary());
        for (String note : notes) {
            line(sb, "note", note);
        }
        line(sb, "logs", logDir);
        line(sb, "result", (passed() ? "PASS" : "FAIL") + String.format(Locale.ROOT, ": %,d lost, %,d duplicated", lost(), duplicated()));
        return sb.toString();
    }

    /** What became of the published tickets: classified, dead-lettered, lost, duplicated. */
    private void accountingLines(StringBuilder sb) {
        line(sb, "tickets published", String.format(Locale.ROOT, "%,d", accounting.published()));
        line(sb, "classified", String.format(Locale.ROOT, "%,d", accounting.classified()));
        line(sb, "dead-lettered", String.format(Locale.ROOT, "%,d", accounting.deadLettered())
                + (accounting.deadLettersByKind().isEmpty() ? "" : " " + accounting.deadLettersByKind()));
        line(sb, "lost", String.format(Locale.ROOT, "%,d", accounting.lost())
                + (accounting.lostIds().isEmpty() ? "" : " e.g. " + accounting.lostIds()));
        line(sb, "duplicated", String.format(Locale.ROOT, "%,d", accounting.duplicated())
                + (accounting.duplicated() == 0 ? "" : " ids, " + accounting.duplicateRecords() + " extra records, e.g. "
                + accounting.duplicatedIds()));
        if (accounting.classifiedAndDeadLettered() > 0) {
            line(sb, "both outcomes", accounting.classifiedAndDeadLettered() + " ids have a result and a dead letter");
        }
    }

    /**
     * {@code max 45.2 s (pipeline 45.2, 44.0, 43.1 s; broker 8.7 s); target <= 10 s: missed}: restart to
     * first new result.
     */
    public String recoverySummary() {
        if (disruptions.isEmpty()) {
            return "no kill performed";
        }
        List<String> parts = new ArrayList<>();
        for (ChaosPlan.Target t : ChaosPlan.Target.values()) {
            List<String> values = disruptions.stream().filter(d -> d.target() == t)
                    .map(d -> d.firstResultMs() == null ? "not seen" : String.format(Locale.ROOT, "%.1f", d.firstResultMs() / 1000.0))
                    .toList();
            if (!values.isEmpty()) {
                parts.add(t.label() + " " + String.join(", ", values) + " s");
            }
        }
        Long max = maxRecoveryMs(null);
        return "restart to first new result: max " + (max == null ? "not measured" : seconds(max)) + " (" + String.join("; ", parts)
                + "); target <= " + RECOVERY_TARGET_MS / 1000 + " s: " + (recoveryTargetMet() ? "met" : "missed");
    }

    /** A Markdown section: the figures and one line per kill. */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("### (").append(key).append(") ").append(scenario).append("\n\n");
        sb.append(description).append(": ").append(plan).append(".\n\n");
        sb.append("| lost | duplicated | classified | dead-lettered | 429s | wall time | max recovery |\n");
        sb.append("|---:|---:|---:|---:|---:|---:|---:|\n");
        Long max = maxRecoveryMs(null);
        sb.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %d | %s | %s |%n", lost(), duplicated(), accounting.classified(),
                accounting.deadLettered(), http429, ResultTable.duration(wallTimeMs), max == null ? "–" : seconds(max)));
        sb.append('\n');
        for (Disruption d : disruptions) {
            sb.append("- ").append(d.describe(accounting.published())).append(".\n");
        }
        for (String s : notPerformed) {
            sb.append("- not performed: ").append(s).append(".\n");
        }
        sb.append("- Recovery ").append(recoverySummary()).append(".\n");
        for (String note : notes) {
            sb.append("- ").append(note).append(".\n");
        }
        return sb.toString();
    }

    /** The row for the benchmark table ({@link ResultTable}); the kills and recovery go in its notes. */
    public ScenarioResult toScenarioResult() {
        long n = Math.max(1, accounting.published());
        List<String> rowNotes = new ArrayList<>();
        rowNotes.add(String.format(Locale.ROOT, "chaos: %d kills (%s), %d lost, %d duplicated; recovery %s", disruptions.size(), plan,
                lost(), duplicated(), recoverySummary()));
        rowNotes.addAll(notes);
        return new ScenarioResult(key, scenario, description, false, 1, rpm, tpm, simBurstSeconds, Binding.TPM, accounting.published(),
                accounting.classified(), accounting.deadLettered(), accounting.deadLettersByKind(), accounting.duplicated(), calls,
                http429, requestsAdmitted, promptTokens, completionTokens, tokensAdmitted, wallTimeMs, null, null, categoryAccuracy,
                urgencyAccuracy, tokensAdmitted / (double) n, (promptTokens + completionTokens) / (double) n,
                requestsAdmitted == 0 ? 0 : accounting.classified() / (double) requestsAdmitted, rowNotes);
    }

    static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append("  ").append(String.format(Locale.ROOT, "%-18s", label)).append("  ").append(value).append(System.lineSeparator());
    }
}
