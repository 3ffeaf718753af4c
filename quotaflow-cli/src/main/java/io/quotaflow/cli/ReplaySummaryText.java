package io.quotaflow.cli;

import io.quotaflow.dlq.ForceRule;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** {@code dlq replay} in words: the line before, the summary after, and why records were held back. */
final class ReplaySummaryText {

    private ReplaySummaryText() {
    }

    /** What is about to happen, e.g. {@code Replaying tickets.dlq (group g, filters: none, max replays 3, rate no limit)}. */
    static String headline(ReplayOptions o) {
        return (o.dryRun() ? "Dry run of a replay of " : "Replaying ") + o.dlqTopic()
                + " (group " + o.groupId() + (o.reset() ? ", from the beginning" : "")
                + ", filters: " + o.describeFilters() + ", max replays " + o.maxReplays()
                + (o.force() ? ", --force" : "")
                + (o.dryRun() ? "" : ", rate " + (o.ratePerSecond() == 0 ? "no limit" : trim(o.ratePerSecond()) + "/s"))
                + ")";
    }

    /** Before a replay: one line for each {@code --kind} that is held back because {@code --force} is not given. */
    static List<String> forceWarnings(ReplayOptions o) {
        if (o.force()) {
            return List.of();
        }
        return o.kinds().stream().filter(ForceRule::needsForce).map(kind -> "dlq replay: " + kind
                + " dead letters are held back without --force: " + ForceRule.reason(kind).orElseThrow()).toList();
    }

    /** The summary: a headline, then counts, then replays by target topic and by error kind. */
    static String describe(ReplaySummary s, ReplayOptions options) {
        StringBuilder sb = new StringBuilder();
        sb.append(outcome(s, options)).append(" in ")
                .append(String.format(Locale.ROOT, "%.1f s", s.elapsed().toMillis() / 1000.0)).append('\n');
        table(sb, counts(s, options));
        breakdown(sb, s.dryRun() ? "would be replayed to:" : "replayed to:", s.replayedByTopic());
        breakdown(sb, "by error kind:", s.replayedByKind());
        breakdown(sb, "held back (need --force):", s.skippedNeedsForce());
        return sb.toString();
    }

    private static String outcome(ReplaySummary s, ReplayOptions options) {
        String what = s.dryRun() ? "Dry run" : "Replay";
        return switch (s.outcome()) {
            case COMPLETED, RUNNING -> s.dryRun() ? "Dry run complete (nothing written, no offsets committed)"
                    : "Replay complete";
            case MAX_RECORDS -> what + " stopped after --max-records " + options.maxRecords()
                    + (s.dryRun() ? "" : "; run again to continue");
            case STOPPED -> what + " stopped on request" + (s.dryRun() ? "" : "; run again to continue from where it stopped");
        };
    }

    private static Map<String, String> counts(ReplaySummary s, ReplayOptions options) {
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put(s.dryRun() ? "would be replayed" : "replayed", Long.toString(s.replayed()));
        lines.put("skipped (filters)", Long.toString(s.skippedByFilter()));
        lines.put("skipped (max replays " + options.maxReplays() + ")", Long.toString(s.skippedMaxReplays()));
        if (s.skippedNeedsForceTotal() > 0) {
            lines.put("skipped (need --force)", Long.toString(s.skippedNeedsForceTotal()));
        }
        if (s.skippedOriginalGone() > 0) {
            lines.put("skipped (truncated; origin no longer holds the record)", Long.toString(s.skippedOriginalGone()));
        }
        lines.put("examined", Long.toString(s.examined()));
        if (s.outcome() != ReplaySummary.Outcome.COMPLETED) {
            lines.put("left (about)", Long.toString(s.remaining()));
        }
        return lines;
    }

    /**
     * Why dead letters were held back and how to replay them anyway, one line per kind plus the
     * command; empty when none was.
     */
    static String heldBack(ReplaySummary s) {
        if (s.skippedNeedsForce().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        Map<String, Long> held = new TreeMap<>(s.skippedNeedsForce());
        held.forEach((kind, n) -> sb.append("dlq replay: ").append(s.dryRun() ? "would hold back " : "held back ")
                .append(n).append(' ').append(kind).append(n == 1 ? " dead letter: " : " dead letters: ")
                .append(ForceRule.reason(kind).orElse("it cannot succeed unchanged")).append('\n'));
        sb.append("dlq replay: to replay them anyway: quotaflow dlq replay --kind ")
                .append(String.join(",", held.keySet())).append(" --force")
                .append(s.dryRun() ? "" : " --reset").append('\n');
        return sb.toString();
    }

    private static void table(StringBuilder sb, Map<String, String> lines) {
        int width = lines.keySet().stream().mapToInt(String::length).max().orElse(0);
        int valueWidth = lines.values().stream().mapToInt(String::length).max().orElse(0);
        lines.forEach((k, v) -> sb.append("  ").append(DlqStatsTable.pad(k, width)).append("  ")
                .append(DlqStatsTable.padLeft(v, valueWidth)).append('\n'));
    }

    private static void breakdown(StringBuilder sb, String heading, Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return;
        }
        sb.append(heading).append('\n');
        Map<String, String> lines = new LinkedHashMap<>();
        counts.forEach((k, v) -> lines.put(k, Long.toString(v)));
        table(sb, lines);
    }

    private static String trim(double d) {
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
