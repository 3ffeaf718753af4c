package io.quotaflow.metrics;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

import java.util.Set;

/** What the health checks ask of the Kafka Streams application. */
public interface StreamsProbe {

    /** The application's state. */
    KafkaStreams.State state();

    /** Stream threads alive (neither dead nor shutting down), or -1 when the application cannot tell yet. */
    int aliveThreads();

    /** Whether the application has been {@code RUNNING} at least once (a later rebalance is routine, not unready). */
    boolean wasRunning();

    /**
     * A probe of {@code streams}; it installs the application's state listener, so call it before
     * {@link KafkaStreams#start()}.
     */
    static StreamsProbe watching(KafkaStreams streams) {
        return watching(streams, state -> { });
    }

    /** As {@link #watching(KafkaStreams)}, telling {@code onChange} each new state too (on the thread that changed it). */
    static StreamsProbe watching(KafkaStreams streams, java.util.function.Consumer<KafkaStreams.State> onChange) {
        boolean[] running = {false};
        streams.setStateListener((now, before) -> {
            onChange.accept(now);
            if (now == KafkaStreams.State.RUNNING) {
                synchronized (running) {
                    running[0] = true;
                }
            }
        });
        return new StreamsProbe() {
            @Override
            public KafkaStreams.State state() {
                return streams.state();
            }

            @Override
            public int aliveThreads() {
                try {
                    Set<ThreadMetadata> threads = streams.metadataForLocalThreads();
                    return (int) threads.stream().map(ThreadMetadata::threadState)
                            .filter(s -> !s.equals("DEAD") && !s.equals("PENDING_SHUTDOWN")).count();
                } catch (RuntimeException e) {
                    return -1;
                }
            }

            @Override
            public boolean wasRunning() {
                synchronized (running) {
                    return running[0];
                }
            }
        };
    }
}
