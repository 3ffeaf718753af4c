package io.quotaflow.topology;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.failure.BoundedValue;
import io.quotaflow.failure.FailureHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Kafka Streams' error handlers, so that no single record can stop the pipeline: one that cannot
 * be read, processed or written is dead-lettered (kind {@code internal-error}, its first bytes
 * with the size and SHA-256 of the whole), logged and counted, and the stream thread goes on,
 * instead of dying on it, being replaced, reading it again and dying again.
 *
 * <p>quotaflow bounds what it writes ({@link io.quotaflow.settings.RecordLimits}), so the production
 * handler is a last line of defence; it still never lets a too-large record fail the task.
 * Dead-letter records are sent by Kafka Streams itself (KIP-1034), in the same transaction.
 */
public final class StreamErrorHandlers {

    public static final String INTERNAL_ERROR = io.quotaflow.failure.ErrorKind.INTERNAL_ERROR.wire();
    /** A dead letter from a handler keeps at most this many bytes of the record. */
    static final int PREVIEW_BYTES = 64 * 1024;
    static final int MAX_HEADER_BYTES = 16 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(StreamErrorHandlers.class);

    private StreamErrorHandlers() {
    }

    /** The Streams property that hands the handlers the deployment's {@code topics.prefix}. */
    static final String TOPICS_PREFIX_CONFIG = "quotaflow.topics.prefix";

    /** Streams properties that install the handlers and hand them {@code listener}. */
    public static Map<String, Object> properties(StreamErrorListener listener) {
        return properties(listener, TopicNames.DEFAULT);
    }

    /** As above, dead-lettering to {@code topics.dlq()}. */
    public static Map<String, Object> properties(StreamErrorListener listener, TopicNames topics) {
        return Map.of(
                "deserialization.exception.handler", Deserialization.class.getName(),
                "processing.exception.handler", Processing.class.getName(),
                "production.exception.handler", Production.class.getName(),
                StreamErrorListener.CONFIG_KEY, listener,
                TOPICS_PREFIX_CONFIG, topics.prefix());
    }

    private static TopicNames topics(Map<String, ?> configs) {
        Object prefix = configs.get(TOPICS_PREFIX_CONFIG);
        return prefix == null ? TopicNames.DEFAULT : new TopicNames(prefix.toString());
    }

    private static StreamErrorListener listener(Map<String, ?> configs) {
        Object l = configs.get(StreamErrorListener.CONFIG_KEY);
        return l instanceof StreamErrorListener listener ? listener : StreamErrorListener.NONE;
    }

    /** A repartition or changelog record that cannot be read (corrupt, or from an unknown version). */
    public static final class Deserialization implements DeserializationExceptionHandler {

        private StreamErrorListener listener = StreamErrorListener.NONE;
        private TopicNames topics = TopicNames.DEFAULT;

        @Override
        public void configure(Map<String, ?> configs) {
            listener = listener(configs);
            topics = topics(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
            LOG.error("cannot read the record at {}-{}@{} ({} bytes): {}; dead-lettered as {}, processing goes on",
                    record.topic(), record.partition(), record.offset(), size(record.value()), exception.toString(), INTERNAL_ERROR);
            listener.recordFailed("deserialization", record.topic(), exception.getClass().getSimpleName());
            return Response.resume(List.of(deadLetter(context, record.key(), record.value(), record.headers(),
                    "cannot read record: " + exception.getClass().getSimpleName(), null, topics)));
        }
    }

    /** A processor threw on a record: a bug, but one record must not stop the rest. */
    public static final class Processing implements ProcessingExceptionHandler {

        private StreamErrorListener listener = StreamErrorListener.NONE;
        private TopicNames topics = TopicNames.DEFAULT;

        @Override
        public void configure(Map<String, ?> configs) {
            listener = listener(configs);
            topics = topics(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
            LOG.error("processor {} failed on the record at {}-{}@{}; dead-lettered as {}, processing goes on",
                    context.processorNodeId(), context.topic(), context.partition(), context.offset(), INTERNAL_ERROR, exception);
            listener.recordFailed("processing", String.valueOf(context.topic()), exception.getClass().getSimpleName());
            if (context.sourceRawValue() == null) {
                // a punctuation: there is no input record to keep
                return Response.resume();
            }
            return Response.resume(List.of(deadLetter(context, context.sourceRawKey(), context.sourceRawValue(),
                    context.headers(), "processing failed in " + context.processorNodeId() + ": "
                            + exception.getClass().getSimpleName(), null, topics)));
        }
    }

    /** A record could not be written (too large, or refused by the broker for itself). */
    public static final class Production implements ProductionExceptionHandler {

        private StreamErrorListener listener = StreamErrorListener.NONE;
        private TopicNames topics = TopicNames.DEFAULT;

        @Override
        public void configure(Map<String, ?> configs) {
            listener = listener(configs);
            topics = topics(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
            if (!(exception instanceof RecordTooLargeException) && !(exception instanceof org.apache.kafka.common.InvalidRecordException)) {
                return Response.fail();
            }
            return keep(context, record, exception);
        }

        @Override
        public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                                 SerializationExceptionOrigin origin) {
            LOG.error("cannot serialise a record for {}: {}", record.topic(), exception.toString());
            listener.recordFailed("production", record.topic(), exception.getClass().getSimpleName());
            return Response.resume();
        }

        private Response keep(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
            LOG.error("cannot write a {}-byte record to {}: {}; dead-lettered as {} (first {} bytes), processing goes on",
                    size(record.value()), record.topic(), exception.toString(), INTERNAL_ERROR, PREVIEW_BYTES);
            listener.recordFailed("production", record.topic(), exception.getClass().getSimpleName());
            return Response.resume(List.of(deadLetter(context, record.key(), record.value(), record.headers(),
                    "cannot write to " + record.topic() + ": " + exception.getClass().getSimpleName(), record.topic(), topics)));
        }
    }

    static ProducerRecord<byte[], byte[]> deadLetter(ErrorHandlerContext context, byte[] key, byte[] value, Headers headers,
                                                     String message, String failedTopic, TopicNames topics) {
        BoundedValue bounded = BoundedValue.of(value == null ? new byte[0] : value, PREVIEW_BYTES);
        RecordHeaders out = new RecordHeaders();
        long used = 0;
        if (headers != null) {
            for (Header h : headers) {
                int size = h.key().length() + size(h.value());
                if (h.key().startsWith(DeadLetterHeaders.PREFIX) || used + size > MAX_HEADER_BYTES) {
                    continue;
                }
                used += size;
                out.add(h.key(), h.value());
            }
        }
        String now = Long.toString(Time.SYSTEM.milliseconds());
        put(out, DeadLetterHeaders.VERSION, DeadLetterHeaders.SCHEMA_VERSION);
        put(out, DeadLetterHeaders.ATTEMPT, "0");
        put(out, DeadLetterHeaders.FIRST_FAILURE, now);
        put(out, DeadLetterHeaders.LAST_FAILURE, now);
        put(out, DeadLetterHeaders.ERROR_KIND, INTERNAL_ERROR);
        put(out, DeadLetterHeaders.ERROR_STATUS, "0");
        put(out, DeadLetterHeaders.ERROR_MESSAGE, FailureHeaders.truncate(message));
        String topic = context == null ? null : context.topic();
        if (topic != null && topics.priorityOf(topic).isPresent()) {
            // an input record: replayable from where it is
            put(out, DeadLetterHeaders.ORIGIN_TOPIC, topic);
            put(out, DeadLetterHeaders.ORIGIN_PARTITION, Integer.toString(context.partition()));
            put(out, DeadLetterHeaders.ORIGIN_OFFSET, Long.toString(context.offset()));
        }
        if (failedTopic != null) {
            put(out, DeadLetterHeaders.FAILED_TOPIC, failedTopic);
        }
        put(out, DeadLetterHeaders.ORIGINAL_SIZE, Long.toString(bounded.originalSize()));
        put(out, DeadLetterHeaders.ORIGINAL_SHA256, bounded.originalSha256());
        if (bounded.truncated()) {
            put(out, DeadLetterHeaders.VALUE_TRUNCATED, "true");
        }
        return new ProducerRecord<>(topics.dlq(), null, key, bounded.bytes(), out);
    }

    private static void put(Headers h, String key, String value) {
        h.remove(key);
        h.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static int size(byte[] b) {
        return b == null ? 0 : b.length;
    }
}
