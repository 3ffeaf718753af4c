package io.quotaflow.dlq;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * What a {@link DeadLetterReplayer} did (or, for a dry run, would do). Progress callbacks receive
 * the same record with outcome {@link Outcome#RUNNING}. Every count is of records, never offsets.
 *
 * @param dryRun              nothing was written and no offset committed
 * @param outcome             why the replay ended
 * @param examined            dead letters read (and, unless a dry run, their offsets committed)
 * @param replayed            records written back to their origin topics (would be, in a dry run)
 * @param skippedByFilter     dead letters that did not pass the filters
 * @param skippedMaxReplays   selected dead letters skipped because their {@code qf.replay.count}
 *                            reached {@code --max-replays}
 * @param replayedByTopic     replayed records by the topic written to
 * @param replayedByKind      replayed records by {@code qf.error.kind}
 * @param remaining           dead letters left before the end captured at start, estimated from the
 *                            offsets left and the share of records among the offsets read so far
 *                            (transaction markers take offsets too); 0 once completed
 * @param elapsed             time since the replay started
 * @param skippedOriginalGone selected dead letters with a truncated value whose origin topic no longer
 *                            holds the whole record (retention): nothing to replay
 * @param skippedNeedsForce   selected dead letters held back by {@link ForceRule} (no {@code --force}),
 *                            by {@code qf.error.kind}
 */
public record ReplaySummary(
        boolean dryRun,
        Outcome outcome,
        long examined,
        long replayed,
        long skippedByFilter,
        long skippedMaxReplays,
        Map<String, Long> replayedByTopic,
        Map<String, Long> replayedByKind,
        long remaining,
        Duration elapsed,
        long skippedOriginalGone,
        Map<String, Long> skippedNeedsForce) {

    /** A summary with no truncated dead letter skipped and none held back for {@code --force}. */
    public ReplaySummary(boolean dryRun, Outcome outcome, long examined, long replayed, long skippedByFilter,
                         long skippedMaxReplays, Map<String, Long> replayedByTopic, Map<String, Long> replayedByKind,
                         long remaining, Duration elapsed) {
        this(dryRun, outcome, examined, replayed, skippedByFilter, skippedMaxReplays, replayedByTopic, replayedByKind,
                remaining, elapsed, 0, Map.of());
    }

    /** Why a replay ended. */
    public enum Outcome {
        /** Still running (progress reports only). */
        RUNNING,
        /** Reached the end offsets captured at start. */
        COMPLETED,
        /** Replayed {@code maxRecords} records. */
        MAX_RECORDS,
        /** Stopped on request (Ctrl+C); a later run resumes from the committed offsets. */
        STOPPED
    }

    public ReplaySummary {
        Objects.requireNonNull(outcome, "outcome");
        replayedByTopic = Collections.unmodifiableMap(new LinkedHashMap<>(replayedByTopic));
        replayedByKind = Collections.unmodifiableMap(new LinkedHashMap<>(replayedByKind));
        skippedNeedsForce = Collections.unmodifiableMap(new LinkedHashMap<>(skippedNeedsForce));
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** Dead letters held back for {@code --force}, all kinds together. */
    public long skippedNeedsForceTotal() {
        return skippedNeedsForce.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Dead letters examined per second of the replay so far (0 before a millisecond passed). */
    public double recordsPerSecond() {
        long ms = elapsed.toMillis();
        return ms <= 0 ? 0 : examined * 1000.0 / ms;
    }

    /**
     * One line for progress reports, in records:
     * {@code replay: 1,200 examined, 800 replayed, 380 filtered out, 20 need --force, 0 over max replays, ~8,800 left, 950/s}.
     */
    public String progressLine() {
        return String.format(Locale.ROOT, "%s%,d examined, %,d %s, %,d filtered out, %,d need --force, %,d over max replays, "
                        + "~%,d left, %,.0f/s", dryRun ? "dry run: " : "replay: ", examined, replayed,
                dryRun ? "would be replayed" : "replayed", skippedByFilter, skippedNeedsForceTotal(), skippedMaxReplays,
                remaining, recordsPerSecond());
    }

    /**
     * One human line, as {@code publish} sums up its run: {@code replayed 19 dead letters in 1.2 s
     * (tickets.standard 12, tickets.bulk 7); 30 examined, 10 filtered out, 1 over max replays}, with
     * the dead letters held back for {@code --force}, those whose origin is gone and why it stopped
     * early when there are any. For the log line at the end of a replay.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder(dryRun ? "would replay " : "replayed ").append(String.format(Locale.ROOT,
                "%,d dead letter%s in %.1f s", replayed, replayed == 1 ? "" : "s", elapsed.toMillis() / 1000.0));
        if (!replayedByTopic.isEmpty()) {
            StringJoiner topics = new StringJoiner(", ", " (", ")");
            replayedByTopic.forEach((topic, n) -> topics.add(topic + " " + n));
            sb.append(topics);
        }
        sb.append(String.format(Locale.ROOT, "; %,d examined, %,d filtered out, %,d over max replays",
                examined, skippedByFilter, skippedMaxReplays));
        if (skippedNeedsForceTotal() > 0) {
            sb.append(String.format(Locale.ROOT, ", %,d held back (need --force)", skippedNeedsForceTotal()));
        }
        if (skippedOriginalGone > 0) {
            sb.append(String.format(Locale.ROOT, ", %,d truncated with the origin gone", skippedOriginalGone));
        }
        return sb.append(switch (outcome) {
            case COMPLETED, RUNNING -> "";
            case MAX_RECORDS -> String.format(Locale.ROOT, "; stopped at --max-records, ~%,d left", remaining);
            case STOPPED -> String.format(Locale.ROOT, "; stopped on request, ~%,d left", remaining);
        }).toString();
    }

    /** The summary as JSON: every field, {@code elapsedMs} for the duration. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("dryRun", dryRun);
        json.put("outcome", outcome.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        json.put("examined", examined);
        json.put("replayed", replayed);
        json.put("skippedByFilter", skippedByFilter);
        json.put("skippedMaxReplays", skippedMaxReplays);
        json.put("skippedOriginalGone", skippedOriginalGone);
        ObjectNode force = json.putObject("skippedNeedsForce");
        skippedNeedsForce.forEach(force::put);
        ObjectNode topics = json.putObject("replayedByTopic");
        replayedByTopic.forEach(topics::put);
        ObjectNode kinds = json.putObject("replayedByKind");
        replayedByKind.forEach(kinds::put);
        json.put("remaining", remaining);
        json.put("elapsedMs", elapsed.toMillis());
        return json;
    }
}
