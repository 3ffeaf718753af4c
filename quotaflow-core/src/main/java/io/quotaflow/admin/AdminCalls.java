package io.quotaflow.admin;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * {@link TopicsApplier}'s Admin round trips, each bounded by one timeout: a future awaited, a describe
 * repeated while a new topic is not yet known to the broker answering, new partitions awaited.
 */
final class AdminCalls {

    private final Duration timeout;
    /** Deadlines and elapsed times: Kafka's adapter over the JVM's monotonic clock. */
    private final Time time = Time.SYSTEM;

    AdminCalls(Duration timeout) {
        this.timeout = timeout;
    }

    /** Waits until every broker answer shows the topics with at least the given partition counts. */
    void awaitPartitions(Admin admin, Map<String, Integer> wanted) {
        if (wanted.isEmpty()) {
            return;
        }
        long deadline = time.nanoseconds() + timeout.toNanos();
        while (true) {
            try {
                Map<String, TopicDescription> seen =
                        await(admin.describeTopics(wanted.keySet()).allTopicNames(), "describe topics");
                if (wanted.entrySet().stream()
                        .allMatch(e -> seen.get(e.getKey()).partitions().size() >= e.getValue())) {
                    return;
                }
            } catch (KafkaException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            if (time.nanoseconds() > deadline) {
                throw new KafkaException("topics " + wanted.keySet() + " are not visible after " + timeout);
            }
            pause();
        }
    }

    /** Repeats a describe call while a just-created topic has not reached the broker answering it. */
    <T> T retryUnknownTopic(Supplier<T> call) {
        long deadline = time.nanoseconds() + timeout.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (KafkaException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || time.nanoseconds() > deadline) {
                    throw e;
                }
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        }
    }

    /** Gets a future within the timeout; failures become a {@link KafkaException} with the cause kept. */
    <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new InterruptException(e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new KafkaException("cannot " + what + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new KafkaException("cannot " + what + ": no answer within " + timeout, e);
        }
    }
}
