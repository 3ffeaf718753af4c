package io.quotaflow.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drops two WARN lines of Kafka's clients that a healthy pipeline prints as a matter of course, and
 * only those: every other line of the same loggers (a broker that cannot be reached, a topic that does
 * not exist, a produce error of another kind) stays.
 *
 * <ul>
 *   <li>{@code NetworkClient}: "The metadata response from the cluster reported a recoverable issue
 *   ... {app-dispatch-repartition=UNKNOWN_TOPIC_OR_PARTITION}" when every topic named is one of Kafka
 *   Streams' own internal topics ({@code -repartition}, {@code -changelog}): at an application's first
 *   start its stream threads subscribe to them before the first rebalance creates them. A missing
 *   input or output topic is still a warning (and Streams fails on a missing source topic anyway).</li>
 *   <li>{@code Sender}: "Got error produce response ..., retrying ... Error: CONCURRENT_TRANSACTIONS"
 *   (or {@code OUT_OF_ORDER_SEQUENCE_NUMBER}): under exactly-once a produce that reaches a partition
 *   while the previous transaction's markers are being written is refused and retried, a race of
 *   every commit (every 100 ms), not a fault; a retry that fails for good is an ERROR of the
 *   transaction manager and of Kafka Streams.</li>
 * </ul>
 */
public final class ExpectedKafkaWarnings extends TurboFilter {

    static final String NETWORK_CLIENT = "org.apache.kafka.clients.NetworkClient";
    static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";

    /** The issues of a metadata warning: {@code {topic=ERROR, ...}} at its end. */
    private static final Pattern METADATA_ISSUE = Pattern.compile(".*reported a recoverable issue with correlation id \\d+ : \\{(.+)}\\s*");
    private static final Pattern INTERNAL_UNKNOWN = Pattern.compile("\\S+-(repartition|changelog)=UNKNOWN_TOPIC_OR_PARTITION");
    /** A produce retry's error: the last word of the line. */
    private static final Pattern PRODUCE_RETRY = Pattern.compile(".*Got error produce response .*retrying .*Error: ([A-Z_]+)\\s*");
    private static final Set<String> COMMIT_RACES = Set.of("CONCURRENT_TRANSACTIONS", "OUT_OF_ORDER_SEQUENCE_NUMBER");

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level != Level.WARN || format == null || logger == null) {
            return FilterReply.NEUTRAL;
        }
        String name = logger.getName();
        if (!name.equals(NETWORK_CLIENT) && !name.equals(SENDER)) {
            return FilterReply.NEUTRAL;
        }
        // Kafka's clients log through their LogContext, which hands over the message already formatted
        String message = params == null || params.length == 0 ? format : MessageFormatter.arrayFormat(format, params).getMessage();
        return expected(name, message) ? FilterReply.DENY : FilterReply.NEUTRAL;
    }

    /** Whether {@code message} of logger {@code name} is one of the two expected warnings. */
    static boolean expected(String name, String message) {
        if (name.equals(NETWORK_CLIENT)) {
            Matcher m = METADATA_ISSUE.matcher(message);
            if (!m.matches()) {
                return false;
            }
            for (String entry : m.group(1).split(",\\s*")) {
                if (!INTERNAL_UNKNOWN.matcher(entry.strip()).matches()) {
                    return false;
                }
            }
            return true;
        }
        if (name.equals(SENDER)) {
            Matcher m = PRODUCE_RETRY.matcher(message);
            return m.matches() && COMMIT_RACES.contains(m.group(1));
        }
        return false;
    }
}
