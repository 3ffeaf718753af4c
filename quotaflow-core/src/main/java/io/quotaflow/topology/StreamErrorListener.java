package io.quotaflow.topology;

/**
 * Hears about records Kafka Streams could not read, process or write, so that each is counted
 * (and the readiness check can say so). Called on stream threads; must be quick and not throw.
 */
public interface StreamErrorListener {

    /** Key under which the listener object travels in the Streams properties to the handlers. */
    String CONFIG_KEY = "quotaflow.stream-error-listener";

    StreamErrorListener NONE = (stage, topic, exception) -> {
    };

    /**
     * @param stage     {@code deserialization}, {@code processing} or {@code production}
     * @param topic     the topic of the record concerned
     * @param exception the simple class name of the cause
     */
    void recordFailed(String stage, String topic, String exception);
}
