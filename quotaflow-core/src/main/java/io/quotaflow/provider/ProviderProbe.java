package io.quotaflow.provider;

import io.quotaflow.http.AnswerTooLargeException;
import io.quotaflow.http.BoundedBodies;
import io.quotaflow.http.BoundedCall;
import io.quotaflow.llm.ProviderDialect;
import io.quotaflow.llm.TransportCause;
import io.quotaflow.records.Json;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Redactor;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Checks a route's provider over HTTP, without blocking the caller: {@code GET {base}/models} with
 * the route's key (reachable, key accepted, model listed, context window when the provider says it),
 * then, when asked, one 1-token chat completion ({@code max_tokens} 1: the model answers, the
 * rate-limit headers and the limits they announce). Redirects are not followed (the key is never sent
 * elsewhere); every text kept from the provider is redacted. The verdicts are {@link RouteCheck}'s.
 * Each request is bounded as a whole ({@link BoundedCall}: connecting, headers and body within the
 * check's timeout, the connection closed past it) and its answer to {@link #MAX_ANSWER_BYTES}.
 */
public final class ProviderProbe implements AutoCloseable {

    /** How long each request of a check may take, connecting included. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The most bytes one answer of a check may hold (16 MiB): a provider's {@code /models} list is the
     * largest (hundreds of KB at an aggregator), a 1-token completion is under 1 KB.
     */
    public static final long MAX_ANSWER_BYTES = 16L * 1024 * 1024;

    /** What a check sends as the user's message (with {@code max_tokens} 1, a call of about ten tokens). */
    static final String PING = io.quotaflow.llm.PromptBuilder.PROBE_TEXT;

    private final ExecutorService executor;
    private final HttpClient http;
    private final Duration timeout;
    private final Time time;

    public ProviderProbe() {
        this(DEFAULT_TIMEOUT);
    }

    public ProviderProbe(Duration timeout) {
        this(timeout, Time.SYSTEM);
    }

    /** Checks timed out after {@code timeout}, timed and dated by {@code time}. */
    public ProviderProbe(Duration timeout, Time time) {
        this.timeout = timeout;
        this.time = time;
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "quotaflow-check-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        // HTTP/1.1: no h2c upgrade asked of a plain-HTTP server (ALPN would pick HTTP/2 for https anyway, for one call)
        this.http = HttpClient.newBuilder().executor(executor).connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * Checks {@code route}: {@code GET /models} and, with {@code call}, one 1-token chat completion.
     * Never completes exceptionally.
     */
    public CompletableFuture<ProbeReport> check(RouteSettings route, boolean call) {
        RouteCheck check = new RouteCheck(route, call, time);
        CompletableFuture<ProbeReport> report = send(models(route)).thenCompose(models -> {
            check.models(models);
            if (!check.wantsCall()) {
                return CompletableFuture.completedFuture(check.finish());
            }
            HttpRequest chat;
            try {
                chat = chat(route);
            } catch (IOException e) {
                check.broken("could not encode the check's request: " + e.getMessage());
                return CompletableFuture.completedFuture(check.finish());
            }
            return send(chat).thenApply(answer -> {
                check.chat(answer);
                return check.finish();
            });
        });
        return report.exceptionally(e -> {
            check.broken("the check failed: " + e);
            return check.finish();
        });
    }

    private HttpRequest models(RouteSettings route) {
        ProviderDialect dialect = ProviderDialect.of(route.model().dialect());
        HttpRequest.Builder b = HttpRequest.newBuilder(dialect.modelsUri(route.model())).timeout(timeout)
                .header("Accept", "application/json").GET();
        dialect.credentials(route.model().apiKey()).forEach(b::header);
        return b.build();
    }

    private HttpRequest chat(RouteSettings route) throws IOException {
        // the same one-token call a halted route probes with (PromptBuilder.probe)
        var body = io.quotaflow.llm.PromptBuilder.probe(route.model().model()).body();
        ProviderDialect dialect = ProviderDialect.of(route.model().dialect());
        HttpRequest.Builder b = HttpRequest.newBuilder(dialect.chatUri(route.model())).timeout(timeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)));
        dialect.credentials(route.model().apiKey()).forEach(b::header);
        return b.build();
    }

    private CompletableFuture<Exchange> send(HttpRequest request) {
        long start = time.nanoseconds();
        String where = Redactor.url(request.uri());
        CompletableFuture<HttpResponse<String>> sent;
        try {
            sent = BoundedCall.send(http, request, BoundedBodies.ofString(MAX_ANSWER_BYTES), timeout);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Exchange.failed(where, TransportCause.of(e), 0));
        }
        return sent.handle((response, error) -> {
            long ms = (time.nanoseconds() - start) / 1_000_000;
            return error == null ? new Exchange(where, response.statusCode(), response.headers(), response.body(), null, ms)
                    : Exchange.failed(where, cause(error), ms);
        });
    }

    private static String cause(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof AnswerTooLargeException big ? "answer not read: larger than " + big.limit() + " bytes (HTTP "
                + big.status() + ")" : TransportCause.of(cause);
    }

    /**
     * One request's end: the provider's answer ({@code status}, {@code headers}, {@code body}), or the
     * {@code transport} cause of none ({@code status} 0).
     *
     * @param where the URL asked, fit to print
     */
    record Exchange(String where, int status, HttpHeaders headers, String body, String transport, long millis) {

        static Exchange failed(String where, String transport, long millis) {
            return new Exchange(where, 0, HttpHeaders.of(java.util.Map.of(), (a, b) -> true), "", transport, millis);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
