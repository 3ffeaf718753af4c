package io.quotaflow.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spans the SDK did not deliver ({@code quotaflow_trace_spans_dropped_total}, docs/operations.md, "Traces"):
 * those whose export failed (a collector down or refusing), counted by the {@link #exporter} wrapper, and those
 * the SDK's batch processor dropped because its queue was full, read from the processor's own counter through
 * {@link #reader}. A failed export is one WARN line a minute at most, with the spans dropped since the last
 * (the exporter's own ERROR lines are off in logback.xml).
 */
public final class SpanDrops {

    private static final Logger LOG = LoggerFactory.getLogger(SpanDrops.class);
    /** At most one WARN line about failed exports in this time. */
    static final long WARN_EVERY_MS = 60_000;
    /** The batch processor's counter of spans it processed: legacy and semantic-convention names. */
    private static final String LEGACY_PROCESSED = "processedSpans";
    private static final String PROCESSED = "otel.sdk.processor.span.processed";
    private static final AttributeKey<Boolean> DROPPED = AttributeKey.booleanKey("dropped");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final Time time;
    private final AtomicLong failed = new AtomicLong();
    private final Reader reader = new Reader();
    private long unreported;
    private long lastWarn = Long.MIN_VALUE;

    public SpanDrops(Time time) {
        this.time = time;
    }

    /** {@code delegate}, counting the spans of every export that fails. */
    public SpanExporter exporter(SpanExporter delegate) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                int n = spans.size();
                CompletableResultCode result;
                try {
                    result = delegate.export(spans);
                } catch (RuntimeException e) {
                    exportFailed(n, e);
                    return CompletableResultCode.ofFailure();
                }
                result.whenComplete(() -> {
                    if (!result.isSuccess()) {
                        exportFailed(n, result.getFailureThrowable());
                    }
                });
                return result;
            }

            @Override
            public CompletableResultCode flush() {
                return delegate.flush();
            }

            @Override
            public CompletableResultCode shutdown() {
                return delegate.shutdown();
            }

            @Override
            public String toString() {
                return "SpanDrops{" + delegate + "}";
            }
        };
    }

    /** Reads the SDK's own metrics (its batch processor's dropped spans); registered with its meter provider. */
    public MetricReader reader() {
        return reader;
    }

    /** Spans dropped so far: failed exports and a full queue. */
    public long dropped() {
        return failed.get() + reader.queueDropped();
    }

    /** Spans of failed exports so far. */
    long exportsFailed() {
        return failed.get();
    }

    void exportFailed(int spans, Throwable cause) {
        failed.addAndGet(spans);
        long now = time.milliseconds();
        long report;
        synchronized (this) {
            unreported += spans;
            if (lastWarn != Long.MIN_VALUE && now - lastWarn < WARN_EVERY_MS) {
                return;
            }
            lastWarn = now;
            report = unreported;
            unreported = 0;
        }
        LOG.warn("traces: {} spans could not be exported since the last such line ({}); they are dropped and counted in "
                + "quotaflow_trace_spans_dropped_total; the pipeline goes on (at most one such line a minute)", report,
                cause == null ? "the exporter failed" : cause.getClass().getSimpleName());
    }

    /** A pull reader of the SDK's own metrics, read when the metrics page is. */
    private static final class Reader implements MetricReader {
        private volatile CollectionRegistration registration = CollectionRegistration.noop();

        @Override
        public void register(CollectionRegistration registration) {
            this.registration = registration;
        }

        long queueDropped() {
            long dropped = 0;
            try {
                for (MetricData m : registration.collectAllMetrics()) {
                    if (m.getType() != MetricDataType.LONG_SUM) {
                        continue;
                    }
                    boolean legacy = LEGACY_PROCESSED.equals(m.getName());
                    if (!legacy && !PROCESSED.equals(m.getName())) {
                        continue;
                    }
                    for (LongPointData p : m.getLongSumData().getPoints()) {
                        if (legacy ? Boolean.TRUE.equals(p.getAttributes().get(DROPPED)) : p.getAttributes().get(ERROR_TYPE) != null) {
                            dropped += p.getValue();
                        }
                    }
                }
            } catch (RuntimeException e) {
                // a metric never fails the page
            }
            return dropped;
        }

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
            return AggregationTemporality.CUMULATIVE;
        }

        @Override
        public CompletableResultCode forceFlush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            registration = CollectionRegistration.noop();
            return CompletableResultCode.ofSuccess();
        }
    }
}
