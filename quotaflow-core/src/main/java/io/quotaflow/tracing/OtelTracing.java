package io.quotaflow.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.ticket.WorkItem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link Tracing} over an OpenTelemetry SDK (docs/operations.md, "Traces"). Spans are handed to the SDK's batch
 * processor, which exports them on a thread of its own and drops what does not fit its queue: nothing here waits
 * for a collector.
 */
public final class OtelTracing implements Tracing {

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<Long> MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> TICKET = AttributeKey.stringKey("quotaflow.ticket.id");
    static final AttributeKey<String> TENANT = AttributeKey.stringKey("quotaflow.tenant");
    static final AttributeKey<String> PRIORITY = AttributeKey.stringKey("quotaflow.priority");
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("quotaflow.route");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("quotaflow.attempt");
    static final AttributeKey<String> BATCH = AttributeKey.stringKey("quotaflow.batch.id");
    static final AttributeKey<Long> BATCH_SIZE = AttributeKey.longKey("quotaflow.batch.size");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("quotaflow.reason");
    static final AttributeKey<Long> POSITION = AttributeKey.longKey("quotaflow.position");
    static final AttributeKey<String> FROM = AttributeKey.stringKey("quotaflow.route.from");
    static final AttributeKey<String> TO = AttributeKey.stringKey("quotaflow.route.to");
    static final AttributeKey<String> BATCH_JOB = AttributeKey.stringKey("quotaflow.batch.job");
    static final AttributeKey<String> BATCH_STATUS = AttributeKey.stringKey("quotaflow.batch.status");
    static final AttributeKey<Long> BATCH_CALLS = AttributeKey.longKey("quotaflow.batch.calls");
    static final AttributeKey<Long> BATCH_ANSWERED = AttributeKey.longKey("quotaflow.batch.answered");
    /** Tickets a job's span links to at most (the SDK keeps {@code OTEL_SPAN_LINK_COUNT_LIMIT} of them, 128 unless set). */
    static final int MAX_JOB_LINKS = 4096;

    private static final TextMapGetter<WorkItem> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(WorkItem carrier) {
            return carrier.headers().stream().map(WorkItem.Header::key).toList();
        }

        @Override
        public String get(WorkItem carrier, String key) {
            return carrier == null ? null : TraceHeaders.get(carrier, key);
        }
    };

    /** Waiting tickets whose position at entry is kept for their wait span at most; the oldest go first. */
    static final int MAX_POSITIONS = 100_000;

    private final OpenTelemetry otel;
    /** The position at entry of waiting tickets, by their intake span's id (bounded: {@link #MAX_POSITIONS}). */
    private final Map<String, Integer> positions = new java.util.LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > MAX_POSITIONS;
        }
    };
    private final Tracer tracer;
    private final boolean captureContent;
    private final AutoCloseable sdk;
    private final SpanDrops drops;

    /**
     * Traces through {@code otel}; {@code captureContent} adds the prompt's messages to call spans; {@code sdk}
     * is closed by {@link #close} (null: nothing to close).
     */
    public OtelTracing(OpenTelemetry otel, boolean captureContent, AutoCloseable sdk) {
        this(otel, captureContent, sdk, null);
    }

    /** As above, counting the spans the SDK drops with {@code drops} (null: none counted). */
    public OtelTracing(OpenTelemetry otel, boolean captureContent, AutoCloseable sdk, SpanDrops drops) {
        this.drops = drops;
        this.otel = otel;
        this.tracer = otel.getTracer("io.quotaflow");
        this.captureContent = captureContent;
        this.sdk = sdk;
    }

    SpanDrops drops() {
        return drops;
    }

    OpenTelemetry openTelemetry() {
        return otel;
    }

    private static Context parentOf(WorkItem item) {
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), item, GETTER);
    }

    private static SpanContext contextOf(WorkItem item) {
        return Span.fromContext(parentOf(item)).getSpanContext();
    }

    @Override
    public WorkItem intake(WorkItem item, long nowMs) {
        try {
            Span span = tracer.spanBuilder("quotaflow intake").setParent(parentOf(item)).setSpanKind(SpanKind.CONSUMER)
                    .setStartTimestamp(nowMs, TimeUnit.MILLISECONDS)
                    .setAllAttributes(ticketAttributes(item)).startSpan();
            if (item.hasDeadline()) {
                span.setAttribute("quotaflow.deadline", java.time.Instant.ofEpochMilli(item.deadline()).toString());
            }
            span.setAttribute("messaging.source.name", item.origin().topic());
            span.end(nowMs, TimeUnit.MILLISECONDS);
            Map<String, String> carrier = new HashMap<>(2);
            W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), carrier, Map::put);
            String traceparent = carrier.get(TraceHeaders.TRACEPARENT);
            return traceparent == null ? item : TraceHeaders.with(item, traceparent, carrier.get(TraceHeaders.TRACESTATE));
        } catch (RuntimeException e) {
            return item;
        }
    }

    private static Attributes ticketAttributes(WorkItem item) {
        return Attributes.builder().put(TICKET, item.id()).put(TENANT, item.tenant()).put(PRIORITY, item.priority().wireName())
                .put(ROUTE, item.routed().route() == null ? "" : item.routed().route()).put(ATTEMPT, item.attempt() + 1L).build();
    }

    @Override
    public Calls calls(ModelSettings model) {
        String provider = model.dialect().name().toLowerCase(java.util.Locale.ROOT);
        String host = model.baseUrl().getHost();
        int port = model.baseUrl().getPort();
        String name = "chat " + model.model();
        return (request, tickets) -> {
            try {
                return start(name, provider, host, port, model.model(), request, tickets);
            } catch (RuntimeException e) {
                return Call.NONE;
            }
        };
    }

    private Call start(String name, String provider, String host, int port, String model, ModelRequest request,
                       List<WorkItem> tickets) {
        List<SpanContext> contexts = new ArrayList<>(tickets.size());
        for (WorkItem t : tickets) {
            SpanContext c = contextOf(t);
            contexts.add(c);
            waited(t, c);
        }
        SpanBuilder b = tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT)
                .setParent(contexts.isEmpty() || !contexts.get(0).isValid() ? Context.root()
                        : Context.root().with(Span.wrap(contexts.get(0))))
                .setAttribute(OPERATION, "chat").setAttribute(PROVIDER, provider).setAttribute(REQUEST_MODEL, model)
                .setAttribute(MAX_TOKENS, (long) request.prompt().maxTokens()).setAttribute(SERVER_ADDRESS, host)
                .setAttribute(BATCH, request.batchId()).setAttribute(BATCH_SIZE, (long) tickets.size());
        if (port > 0) {
            b.setAttribute(SERVER_PORT, (long) port);
        }
        for (int i = 0; i < contexts.size(); i++) {
            if (contexts.get(i).isValid()) {
                b.addLink(contexts.get(i), Attributes.of(TICKET, tickets.get(i).id()));
            }
        }
        if (captureContent && request.prompt().body() != null && request.prompt().body().get("messages") != null) {
            b.setAttribute(INPUT_MESSAGES, request.prompt().body().get("messages").toString());
        }
        Span span = b.startSpan();
        return outcome -> end(span, model, outcome);
    }

    @Override
    public Jobs jobs(ModelSettings model) {
        String provider = model.dialect().name().toLowerCase(java.util.Locale.ROOT);
        String host = model.baseUrl().getHost();
        int port = model.baseUrl().getPort();
        return () -> new OtelJob(model.model(), provider, host, port);
    }

    @Override
    public void fallback(WorkItem item, String from, String to, String reason, long nowMs) {
        try {
            Span span = tracer.spanBuilder("quotaflow fallback").setParent(parentOf(item))
                    .setStartTimestamp(nowMs, TimeUnit.MILLISECONDS).setAllAttributes(ticketAttributes(item))
                    .setAttribute(REASON, reason == null ? "" : reason).startSpan();
            span.addEvent("fallback", Attributes.builder().put(REASON, reason == null ? "" : reason).put(FROM, from == null ? "" : from)
                    .put(TO, to == null ? "" : to).build(), nowMs, TimeUnit.MILLISECONDS);
            span.end(nowMs, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // a trace never fails the pipeline
        }
    }

    /** A Batch API job's span: links collected while the job forms, the span from its submission to its end. */
    private final class OtelJob implements Job {
        private final String model;
        private final String provider;
        private final String host;
        private final int port;
        private final List<SpanContext> links = new ArrayList<>();
        private final List<String> ids = new ArrayList<>();
        private long maxTokens;
        private Span span;

        OtelJob(String model, String provider, String host, int port) {
            this.model = model;
            this.provider = provider;
            this.host = host;
            this.port = port;
        }

        @Override
        public void add(ModelRequest request, List<WorkItem> tickets, long nowMs) {
            try {
                maxTokens = Math.max(maxTokens, request.prompt().maxTokens());
                for (WorkItem t : tickets) {
                    SpanContext c = contextOf(t);
                    waited(t, c);
                    if (c.isValid() && links.size() < MAX_JOB_LINKS) {
                        links.add(c);
                        ids.add(t.id());
                    }
                }
            } catch (RuntimeException e) {
                // a trace never fails the pipeline
            }
        }

        @Override
        public void submitted(int calls, long nowMs) {
            try {
                SpanBuilder b = tracer.spanBuilder("batch " + model).setSpanKind(SpanKind.CLIENT)
                        .setParent(links.isEmpty() ? Context.root() : Context.root().with(Span.wrap(links.get(0))))
                        .setStartTimestamp(nowMs, TimeUnit.MILLISECONDS)
                        .setAttribute(OPERATION, "batch").setAttribute(PROVIDER, provider).setAttribute(REQUEST_MODEL, model)
                        .setAttribute(SERVER_ADDRESS, host).setAttribute(BATCH_CALLS, (long) calls);
                if (maxTokens > 0) {
                    b.setAttribute(MAX_TOKENS, maxTokens);
                }
                if (port > 0) {
                    b.setAttribute(SERVER_PORT, (long) port);
                }
                for (int i = 0; i < links.size(); i++) {
                    b.addLink(links.get(i), Attributes.of(TICKET, ids.get(i)));
                }
                b.setAttribute(BATCH_SIZE, (long) links.size());
                span = b.startSpan();
                links.clear();
                ids.clear();
            } catch (RuntimeException e) {
                span = null;
            }
        }

        @Override
        public void accepted(String batchId) {
            if (span != null && batchId != null) {
                span.setAttribute(BATCH_JOB, batchId);
            }
        }

        @Override
        public void end(String status, long inputTokens, long outputTokens, int answered, String error, long nowMs) {
            Span s = span;
            span = null;
            if (s == null) {
                return;
            }
            try {
                s.setAttribute(BATCH_STATUS, status == null ? "" : status);
                s.setAttribute(BATCH_ANSWERED, (long) answered);
                if (answered > 0) {
                    s.setAttribute(RESPONSE_MODEL, model);
                    s.setAttribute(INPUT_TOKENS, inputTokens);
                    s.setAttribute(OUTPUT_TOKENS, outputTokens);
                }
                if (error != null) {
                    s.setAttribute(ERROR_TYPE, status == null || status.isEmpty() ? "_OTHER" : status);
                    s.setStatus(StatusCode.ERROR, error);
                }
            } finally {
                s.end(nowMs, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public void entered(WorkItem item, int ahead) {
        try {
            SpanContext c = contextOf(item);
            if (c.isValid()) {
                synchronized (positions) {
                    positions.put(c.getSpanId(), ahead);
                }
            }
        } catch (RuntimeException e) {
            // a trace never fails the pipeline
        }
    }

    /** The wait of {@code item} for capacity: from when it (last) entered the queue to now, its call's start. */
    private void waited(WorkItem item, SpanContext parent) {
        long entered = item.failure() == null ? item.enqueuedAt() : Math.max(item.enqueuedAt(), item.failure().lastFailure());
        SpanBuilder b = tracer.spanBuilder("quotaflow wait")
                .setParent(parent.isValid() ? Context.root().with(Span.wrap(parent)) : Context.root())
                .setStartTimestamp(entered, TimeUnit.MILLISECONDS).setAllAttributes(ticketAttributes(item));
        Integer ahead = null;
        if (parent.isValid()) {
            synchronized (positions) {
                ahead = positions.remove(parent.getSpanId());
            }
        }
        if (ahead != null) {
            b.setAttribute(POSITION, ahead.longValue());
        }
        b.startSpan().end();
    }

    private static void end(Span span, String model, ModelOutcome outcome) {
        try {
            if (outcome instanceof ModelOutcome.Answered a) {
                span.setAttribute(RESPONSE_MODEL, model);
                span.setAttribute(INPUT_TOKENS, a.promptTokens());
                span.setAttribute(OUTPUT_TOKENS, a.completionTokens());
                if (a.finishReason() != null) {
                    span.setAttribute(FINISH_REASONS, List.of(a.finishReason()));
                }
                if (!a.invalid().isEmpty()) {
                    span.setAttribute("quotaflow.invalid_answers", (long) a.invalid().size());
                }
            } else if (outcome instanceof ModelOutcome.RateLimited) {
                span.setAttribute(ERROR_TYPE, "429");
                span.setStatus(StatusCode.ERROR, "rate limited");
            } else if (outcome instanceof ModelOutcome.Failed f) {
                span.setAttribute(ERROR_TYPE, f.status() > 0 ? Integer.toString(f.status())
                        : f.transport() != null ? f.transport() : f.kind().name().toLowerCase(java.util.Locale.ROOT));
                span.setStatus(StatusCode.ERROR, f.kind().name().toLowerCase(java.util.Locale.ROOT));
            } else {
                span.setAttribute(ERROR_TYPE, "_OTHER");
                span.setStatus(StatusCode.ERROR);
            }
        } finally {
            span.end();
        }
    }

    @Override
    public void event(WorkItem item, String what, String reason, boolean failed, long nowMs) {
        try {
            Span span = tracer.spanBuilder("quotaflow " + what).setParent(parentOf(item))
                    .setStartTimestamp(nowMs, TimeUnit.MILLISECONDS).setAllAttributes(ticketAttributes(item))
                    .setAttribute(REASON, reason == null ? "" : reason).startSpan();
            span.addEvent(what, Attributes.of(REASON, reason == null ? "" : reason), nowMs, TimeUnit.MILLISECONDS);
            if (failed) {
                span.setStatus(StatusCode.ERROR, what + ": " + reason);
            }
            span.end(nowMs, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // a trace never fails the pipeline
        }
    }

    @Override
    public long spansDropped() {
        return drops == null ? 0 : drops.dropped();
    }

    @Override
    public void close() {
        if (sdk != null) {
            try {
                sdk.close();
            } catch (Exception e) {
                // closing: nothing more to do
            }
        }
    }
}
