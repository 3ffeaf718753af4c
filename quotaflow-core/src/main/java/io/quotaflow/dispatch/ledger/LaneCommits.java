package io.quotaflow.dispatch.ledger;

/**
 * When a task that has just written an interactive ticket (intake, onto the interactive lane) or its
 * outcome (the dispatcher, onto the result or dead-letter topic) asks Kafka Streams to commit at once
 * rather than at the next commit interval: under exactly-once a record is readable downstream only
 * once its transaction commits, so each of those two hops would otherwise wait up to
 * {@code commit.interval.ms} (docs/design.md, "Interactive lane"). At most one request every
 * {@value #MIN_GAP_MS} ms a task, so a stream of interactive tickets adds a bounded number of commits.
 * One per task, on its stream thread.
 */
public final class LaneCommits {

    /** The least time between two requests of one task. */
    public static final long MIN_GAP_MS = 20;

    private long last = Long.MIN_VALUE / 2;

    /** Whether a task that wrote an interactive record at {@code now} asks for a commit now (then it is counted as asked). */
    public boolean due(long now) {
        if (now - last < MIN_GAP_MS) {
            return false;
        }
        last = now;
        return true;
    }
}
