package io.quotaflow.dispatch.ledger;

import io.quotaflow.records.Priority;

/**
 * The dispatch lanes: interactive tickets travel a topic of their own, so that a backlog of other
 * classes never delays them; every other class shares the dispatch topic.
 */
public final class Lanes {

    private Lanes() {
    }

    /** Whether tickets of {@code priority} travel the interactive lane. */
    public static boolean interactive(Priority priority) {
        return priority == Priority.INTERACTIVE;
    }
}
