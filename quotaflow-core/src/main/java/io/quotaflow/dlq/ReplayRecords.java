package io.quotaflow.dlq;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/** The record that replays a dead letter: where it goes and what it carries. Pure. */
public final class ReplayRecords {

    /** Where a dead letter goes when its origin header is missing or names no priority topic. */
    public static final String FALLBACK_TOPIC = Topics.STANDARD.name();

    private ReplayRecords() {
    }

    /**
     * The topic a dead letter is replayed to: its {@code qf.origin.topic} when that is a priority
     * topic, else {@link #FALLBACK_TOPIC}.
     */
    public static String targetTopic(Headers headers) {
        return targetTopic(headers, TopicNames.DEFAULT);
    }

    /** As above, for the deployment of {@code topics} ({@code topics.prefix}): its own priority topics only. */
    public static String targetTopic(Headers headers, TopicNames topics) {
        return FailureHeaders.string(headers, DeadLetterHeaders.ORIGIN_TOPIC)
                .map(String::strip)
                .filter(topic -> topics.priorityOf(topic).isPresent())
                .orElse(topics.input(Priority.STANDARD));
    }

    /**
     * The record that replays {@code deadLetter}: to {@link #targetTopic}, same key and value bytes,
     * no timestamp (the producer stamps it: a fresh start), the dead letter's headers without any
     * {@code qf.*} one, plus {@code qf.replay.count} = previous + 1 and {@code qf.replay.of} =
     * {@code <partition>:<offset>} of the dead letter.
     */
    public static ProducerRecord<byte[], byte[]> replayRecord(ConsumerRecord<byte[], byte[]> deadLetter) {
        return replayRecord(deadLetter, deadLetter.value());
    }

    /** As {@link #replayRecord(ConsumerRecord)}, with {@code value} (the whole original of a truncated dead letter). */
    public static ProducerRecord<byte[], byte[]> replayRecord(ConsumerRecord<byte[], byte[]> deadLetter, byte[] value) {
        Headers source = deadLetter.headers();
        RecordHeaders headers = new RecordHeaders();
        for (Header header : source) {
            if (!header.key().startsWith(DeadLetterHeaders.PREFIX)) {
                headers.add(header.key(), header.value());
            }
        }
        headers.add(DeadLetterHeaders.REPLAY_COUNT,
                Integer.toString(ReplaySelector.replayCount(source) + 1).getBytes(StandardCharsets.UTF_8));
        headers.add(DeadLetterHeaders.REPLAY_OF,
                (deadLetter.partition() + ":" + deadLetter.offset()).getBytes(StandardCharsets.UTF_8));
        // the deployment is the one whose dead-letter topic this is (topics.prefix)
        return new ProducerRecord<>(targetTopic(source, TopicNames.ofDlq(deadLetter.topic())), null, null,
                deadLetter.key(), value, headers);
    }
}
