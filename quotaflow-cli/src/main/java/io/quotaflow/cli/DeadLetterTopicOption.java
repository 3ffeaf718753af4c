package io.quotaflow.cli;

import io.quotaflow.topology.Topics;
import picocli.CommandLine.Option;

/**
 * The hidden {@code --topic} of the {@code dlq} subcommands ({@code @Mixin}): the dead-letter topic
 * they read, by default the deployment's own under {@code topics.prefix}.
 */
final class DeadLetterTopicOption {

    @Option(names = "--topic", paramLabel = "TOPIC", hidden = true, description = "The dead-letter topic.")
    String topic = Topics.DLQ.name();

    /** The topic given, or the dead-letter topic under the cluster options' {@code topics.prefix}. */
    String resolve(KafkaConnectionOptions kafka) {
        return topic.equals(Topics.DLQ.name()) ? kafka.topics().dlq() : topic;
    }
}
