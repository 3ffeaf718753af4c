package io.quotaflow.dlq;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@link DeadLetterReplayer} did (or, for a dry run, would do). Progress callbacks receive
 * the same record with outcome {@link Outcome#RUNNING}.
 *
 * @param dryRun             nothing was written and no offset committed
 * @param outcome            why the replay ended
 * @param examined           dead letters read (and, unless a dry run, their offsets committed)
 * @param replayed           records written back to their origin topics (would be, in a dry run)
 * @param skippedByFilter    dead letters that did not pass the filters
 * @param skippedMaxReplays  selected dead letters skipped because their {@code qf.replay.count}
 *                           reached {@code --max-replays}
 * @param replayedByTopic    replayed records by the topic written to
 * @param replayedByKind     replayed records by {@code qf.error.kind}
 * @param remaining          offsets left before the end captured at start (an upper bound: it
 *                           counts transaction markers too); 0 once completed
 * @param elapsed            time since the replay started
 * @param skippedOriginalGone selected dead letters with a truncated value whose origin topic no longer
 *                           holds the whole record (retention): nothing to replay
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
        long skippedOriginalGone) {

    /** A summary with no truncated dead letter skipped. */
    public ReplaySummary(boolean dryRun, Outcome outcome, long examined, long replayed, long skippedByFilter,
                         long skippedMaxReplays, Map<String, Long> replayedByTopic, Map<String, Long> replayedByKind,
                         long remaining, Duration elapsed) {
        this(dryRun, outcome, examined, replayed, skippedByFilter, skippedMaxReplays, replayedByTopic, replayedByKind,
                remaining, elapsed, 0);
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
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** One line for progress reports: {@code 120 examined, 80 replayed, 40 filtered out, 0 over max replays, ≤ 880 left}. */
    public String progressLine() {
        return (dryRun ? "dry run: " : "replay: ") + examined + " examined, " + replayed
                + (dryRun ? " would be replayed, " : " replayed, ") + skippedByFilter + " filtered out, "
                + skippedMaxReplays + " over max replays, " + remaining + " left";
    }

    /** The summary as JSON: every field, {@code elapsedMs} for the duration. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("dryRun", dryRun);
        json.put("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        json.put("examined", examined);
        json.put("replayed", replayed);
        json.put("skippedByFilter", skippedByFilter);
        json.put("skippedMaxReplays", skippedMaxReplays);
        ObjectNode topics = json.putObject("replayedByTopic");
        replayedByTopic.forEach(topics::put);
        ObjectNode kinds = json.putObject("replayedByKind");
        replayedByKind.forEach(kinds::put);
        json.put("remaining", remaining);
        json.put("elapsedMs", elapsed.toMillis());
        return json;
    }
}
