package io.quotaflow.dispatch.ledger;

import io.quotaflow.records.Priority;

import java.util.List;

/**
 * The dispatch topics' contract (docs/design.md, "Interactive lane"): their names as Kafka Streams makes them, which
 * lane a class travels, the key of a record for every partition, and the headers of a hand-over and a cancel.
 */
public final class DispatchTopics {

    private DispatchTopics() {
    }

    /** Name of the repartition topic that routes each ticket to the task owning its quota scope. */
    public static final String REPARTITION = "dispatch";
    /**
     * Name of the interactive lane: the repartition topic that carries interactive tickets to the same
     * tasks, partitioned the same way, so that they do not wait behind a backlog of other tickets
     * still to be read from the dispatch topic (docs/design.md, "Interactive lane").
     */
    public static final String INTERACTIVE_REPARTITION = "dispatch-interactive";
    /**
     * The dispatch repartition topic of application {@code applicationId}, as Kafka Streams names it:
     * {@code <application.id>-dispatch-repartition}. Its partition count is {@code dispatch.partitions}.
     */
    public static String dispatchTopic(String applicationId) {
        return applicationId + "-" + REPARTITION + "-repartition";
    }

    /** The interactive lane of application {@code applicationId}: {@code <application.id>-dispatch-interactive-repartition}. */
    public static String interactiveTopic(String applicationId) {
        return applicationId + "-" + INTERACTIVE_REPARTITION + "-repartition";
    }

    /** Both dispatch topics of application {@code applicationId}: the dispatch topic, then the interactive lane. */
    public static List<String> dispatchTopics(String applicationId) {
        return List.of(dispatchTopic(applicationId), interactiveTopic(applicationId));
    }

    /** Whether a ticket of {@code priority} reaches the dispatcher on the interactive lane: an interactive one. */
    public static boolean onInteractiveLane(Priority priority) {
        return Lanes.interactive(priority);
    }

    /** The dispatch topic a ticket of {@code priority} travels ({@link #onInteractiveLane}). */
    public static String dispatchTopic(String applicationId, Priority priority) {
        return onInteractiveLane(priority) ? interactiveTopic(applicationId) : dispatchTopic(applicationId);
    }

    /**
     * The key of a record for every dispatch partition (a cancel): the dispatch topics' partitioner sends it to
     * all of them, so it reaches each scope's owner whatever scopes the writer's configuration knows.
     */
    public static final String EVERY_PARTITION = "*";
    /** Header of a ticket handed to its scope's owner by a task that held it without owning the scope ({@code ScopeHandover}). */
    public static final String HANDOVER_HEADER = "qf.handover";

    /** Header of a cancel (tombstone) on the dispatch repartition topic: the cancelled ticket's id. */
    public static final String CANCEL_HEADER = "qf.cancel";
}
