package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.FailOnInvalidTimestamp;
import org.apache.kafka.streams.processor.TimestampExtractor;

import java.time.Duration;

/**
 * The interactive lanes (docs/design.md, "Interactive lane"). Every ticket reaches the task that owns
 * its quota scope through a repartition topic, and a task reads a partition in order: an interactive
 * ticket published while the dispatcher still has a backlog of other tickets to read from the
 * dispatch topic (a nightly job of a hundred thousand, published at once) waited until the dispatcher
 * had taken in every one of them (1 to 5 s behind 1 500 in the benchmark's (x)).
 *
 * <p>So interactive tickets take a second repartition topic, {@code dispatch-interactive}, partitioned
 * the same way, read by the same tasks. Kafka Streams takes a task's next record from the partition
 * whose next record has the lowest timestamp, and Kafka Streams offers no other way to prefer one
 * input: {@link Timestamps} dates an interactive ticket {@link #LEAD} earlier than it was published,
 * so it goes before every other ticket published less than an hour before it. The dispatcher reads
 * a ticket's publication time from the ticket itself ({@code WorkItem.publishedAt}), and writes its
 * own records, its stores' changelog records included, with the wall-clock time, so nothing else
 * sees the lead, and a broker that refuses old records ({@code log.message.timestamp.before.max.ms})
 * takes them all (TimestampLimitIT).
 *
 * <p>Intake has the same wait: its task reads a partition of every input topic, the interactive one
 * among them, in timestamp order too, so the interactive input topic is a lane as well, and intake
 * takes the lead back ({@link #publishedTime}) before it reads anything of the record.
 *
 * <p>Cancels and the notices of publications to other scopes stay on the dispatch topic, behind any
 * ticket published before them. A copy of a ticket that the lane overtook, an older publication
 * still on the dispatch topic, is dropped when it arrives: its status records the later publication
 * ({@code TicketStatuses#overtakenOnTheLane}), which a restart keeps.
 */
public final class DispatchLanes {

    /** How much earlier than published an interactive ticket is dated on its lane. */
    public static final Duration LEAD = Duration.ofHours(1);

    /** The interactive lane's name without the application id before it. */
    private static final String LANE_SUFFIX = DispatchTopics.interactiveTopic("");
    /** The interactive input topic, whatever {@code topics.prefix} goes before it. */
    private static final String INPUT_SUFFIX = Priority.INTERACTIVE.topic();
    /** A tenant's interactive input topic, {@code [prefix]tickets.<tenant>.interactive} (tenants.from=topic|principal). */
    private static final String TENANT_INPUT_SUFFIX = ".interactive";
    private static final String TENANT_INPUT_START = "tickets.";
    /** Below this a timestamp is left as it is (so that taking the lead back is never ambiguous). */
    private static final long SHIFTED_FROM = 2 * LEAD.toMillis();

    private DispatchLanes() {
    }

    /** Whether intake's {@code result} takes the interactive lane: an interactive ticket. */
    static boolean interactive(IntakeResult result) {
        return result instanceof IntakeResult.Accepted accepted && DispatchTopics.onInteractiveLane(accepted.item().priority());
    }

    /**
     * Whether {@code topic} is an interactive lane: the interactive input topic ({@code [prefix]tickets.interactive},
     * or a tenant's {@code [prefix]tickets.<tenant>.interactive}),
     * read by intake, or {@code <application.id>-dispatch-interactive-repartition}, read by the dispatcher.
     */
    static boolean isLane(String topic) {
        return topic != null && (topic.endsWith(LANE_SUFFIX) || topic.endsWith(INPUT_SUFFIX)
                || topic.endsWith(TENANT_INPUT_SUFFIX) && topic.contains(TENANT_INPUT_START));
    }

    /** The timestamp {@link Timestamps} gives a record of {@code topic} timestamped {@code timestamp}. */
    static long laneTime(String topic, long timestamp) {
        return isLane(topic) && timestamp >= SHIFTED_FROM ? timestamp - LEAD.toMillis() : timestamp;
    }

    /**
     * A record's own timestamp, from the time {@link Timestamps} gave it ({@code extracted}) on
     * {@code topic}: intake takes the lead back, so that a ticket's publication time, the times it
     * writes and the records it forwards are the producer's.
     */
    static long publishedTime(String topic, long extracted) {
        return isLane(topic) && extracted >= SHIFTED_FROM - LEAD.toMillis() ? extracted + LEAD.toMillis() : extracted;
    }

    /**
     * The application's timestamp extractor ({@code default.timestamp.extractor}): a record's own
     * timestamp, as Kafka Streams' default ({@link FailOnInvalidTimestamp}) takes it, except on the
     * interactive lanes, where it is {@link #LEAD} earlier (a timestamp within two hours of the epoch
     * is left as it is, and intake would read one of the second hour as an hour later: no producer's
     * clock says 1970).
     */
    public static final class Timestamps implements TimestampExtractor {

        private final TimestampExtractor records = new FailOnInvalidTimestamp();

        @Override
        public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
            return laneTime(record.topic(), records.extract(record, partitionTime));
        }
    }
}
