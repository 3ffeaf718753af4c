package io.quotaflow.admin;

import io.quotaflow.settings.Keys;
import io.quotaflow.config.ConfigError;
import io.quotaflow.config.ConfigKeys;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Before the streams start: the dispatch repartition topic, when it exists, must have the
 * {@code dispatch.partitions} the topology declares. Kafka Streams would otherwise refuse it at every
 * rebalance ("has invalid partitions") and fail every stream thread over and over; this stops the
 * start at once with what to do instead. A missing topic is fine (Streams creates it with the
 * configured count); a cluster that cannot say is left to Streams, with a warning.
 */
public final class DispatchTopicCheck {

    private static final Logger LOG = LoggerFactory.getLogger(DispatchTopicCheck.class);

    /** How long the start waits for the cluster's answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final String KEY = Keys.DISPATCH_PARTITIONS;

    private DispatchTopicCheck() {
    }

    /**
     * Checks {@code topics} (the dispatch topic and the interactive lane) on the cluster at
     * {@code bootstrapServers}.
     *
     * @throws ConfigError a topic exists with another partition count
     */
    public static void verify(String bootstrapServers, Map<String, ?> kafka, List<String> topics, int configured, List<String> scopes) {
        long partitionsUsed = scopes.stream().mapToInt(s -> io.quotaflow.settings.QuotaScope.dispatchPartition(s, configured)).distinct().count();
        if (partitionsUsed < scopes.size()) {
            LOG.warn("{} quota scopes hash to {} of the {} dispatch partitions ({}={}): scopes that share one share its task (each "
                    + "still has exactly one owner and a limiter of its own); see docs/operations.md, \"Dispatch partitions\"",
                    scopes.size(), partitionsUsed, configured, KEY, configured);
        }
        try (Admin admin = KafkaClients.admin(bootstrapServers, kafka)) {
            for (String topic : topics) {
                OptionalInt existing = partitions(admin, topic, TIMEOUT);
                mismatch(topic, existing, configured).ifPresent(message -> {
                    throw new ConfigError(message);
                });
            }
        } catch (KafkaException | TimeoutException | ExecutionException e) {
            LOG.warn("cannot check the partitions of {} ({}); Kafka Streams checks them itself", topics, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking " + topics, e);
        }
    }

    /** The partitions of {@code topic}, empty when it does not exist. */
    static OptionalInt partitions(Admin admin, String topic, Duration timeout)
            throws ExecutionException, InterruptedException, TimeoutException {
        try {
            Map<String, TopicDescription> found = admin.describeTopics(List.of(topic),
                    new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).allTopicNames()
                    .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
            return OptionalInt.of(found.get(topic).partitions().size());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return OptionalInt.empty();
            }
            throw e;
        }
    }

    /** What is wrong when {@code topic} has {@code existing} partitions and the topology wants {@code configured}. */
    static java.util.Optional<String> mismatch(String topic, OptionalInt existing, int configured) {
        if (existing.isEmpty() || existing.getAsInt() == configured) {
            return java.util.Optional.empty();
        }
        int n = existing.getAsInt();
        return java.util.Optional.of("the dispatch topic " + topic + " has " + n + " partitions but " + KEY + " is " + configured
                + ": Kafka Streams would refuse it and stall the pipeline. To keep this deployment's waiting tickets, set "
                + KEY + "=" + n + " (" + ConfigKeys.envName(KEY) + "=" + n + "); to change the count, drain and reset first "
                + "(docs/operations.md, \"Dispatch partitions\")");
    }
}
