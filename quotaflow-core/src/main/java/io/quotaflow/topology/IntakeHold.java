package io.quotaflow.topology;

import org.apache.kafka.common.TopicPartition;

import java.util.HashSet;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * When a stream thread stops taking in new tickets so that its dispatchers read theirs first
 * (docs/design.md, "Dispatch first"): a pure function of what the thread's consumer is assigned,
 * what Kafka Streams itself paused, and how far each dispatch partition lags.
 *
 * <p>One stream thread runs intake and dispatcher tasks over one consumer, and the consumer fetches
 * at most {@code max.partition.fetch.bytes} a partition a round. A backlog published at once fills
 * every input partition, while a quota scope's tickets reach its dispatcher on one partition: the
 * dispatcher got a few dozen tickets a second while intake took in thousands, and the provider's
 * quota went unused until intake had taken in the whole backlog (the benchmark's (h): the first
 * 10-20 s of a 20 000-ticket run). So while a dispatch partition this thread reads lags more than
 * {@link #maxLag} records, the thread's other input partitions are held (paused), and the
 * dispatchers catch up; the interactive input and the dispatch topics are never held.
 *
 * @param dispatchTopics the dispatch topics (the dispatch repartition topic and its interactive lane)
 * @param alwaysRead     input topics never held (the interactive one)
 * @param maxLag         records a dispatch partition may lag before the other inputs are held; 0: never hold
 */
public record IntakeHold(Set<String> dispatchTopics, Set<String> alwaysRead, long maxLag) {

    public IntakeHold {
        dispatchTopics = Set.copyOf(Objects.requireNonNull(dispatchTopics, "dispatchTopics"));
        alwaysRead = Set.copyOf(Objects.requireNonNull(alwaysRead, "alwaysRead"));
        if (maxLag < 0) {
            throw new IllegalArgumentException("intake.hold-dispatch-lag must be at least 0, got " + maxLag);
        }
    }

    /** Whether this hold ever holds anything. */
    public boolean enabled() {
        return maxLag > 0;
    }

    /**
     * The partitions of {@code assigned} to hold now: every one but the dispatch topics' and those
     * always read, when a dispatch partition lags more than {@link #maxLag} records; else none. A
     * dispatch partition that Kafka Streams paused itself (its task restoring, or its buffer full)
     * holds nothing, so that intake never waits on a task that is not reading; a lag not known yet
     * (no fetch answered) counts as none.
     */
    public Set<TopicPartition> held(Set<TopicPartition> assigned, Set<TopicPartition> pausedByStreams,
                                    Function<TopicPartition, OptionalLong> lag) {
        if (!enabled() || !dispatchLags(assigned, pausedByStreams, lag)) {
            return Set.of();
        }
        Set<TopicPartition> held = new HashSet<>();
        for (TopicPartition tp : assigned) {
            if (!dispatchTopics.contains(tp.topic()) && !alwaysRead.contains(tp.topic())) {
                held.add(tp);
            }
        }
        return held;
    }

    private boolean dispatchLags(Set<TopicPartition> assigned, Set<TopicPartition> pausedByStreams,
                                 Function<TopicPartition, OptionalLong> lag) {
        for (TopicPartition tp : assigned) {
            if (dispatchTopics.contains(tp.topic()) && !pausedByStreams.contains(tp) && lag.apply(tp).orElse(0) > maxLag) {
                return true;
            }
        }
        return false;
    }
}
