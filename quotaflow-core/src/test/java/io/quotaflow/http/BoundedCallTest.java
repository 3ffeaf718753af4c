package io.quotaflow.http;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedCallTest {

    private static final Duration DEADLINE = Duration.ofMillis(400);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private RawHttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static HttpRequest get(RawHttpServer server) {
        return HttpRequest.newBuilder(server.uri("/v1/chat/completions")).GET().build();
    }

    /** The call's failure, and how long it took to come. */
    private static Throwable failure(CompletableFuture<?> call, long[] tookMs) throws InterruptedException {
        long start = System.nanoTime();
        try {
            call.get(10, TimeUnit.SECONDS);
            throw new AssertionError("the call completed normally");
        } catch (ExecutionException e) {
            tookMs[0] = (System.nanoTime() - start) / 1_000_000;
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the call did not end within 10 s", e);
        }
    }

    @Test
    void shouldFailABodyStalledAfterItsHeadersAtTheDeadlineAndCloseTheConnection() throws Exception {
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(1_000));
            out.write("{\"choices\":[{\"message\":".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
        long[] took = new long[1];

        Throwable error = failure(BoundedCall.send(client, get(server), BoundedBodies.ofString(1 << 20), DEADLINE), took);

        assertThat(error).isInstanceOf(CallDeadlineException.class).isInstanceOf(HttpTimeoutException.class)
                .hasMessage("no whole answer within the call's deadline of 400 ms");
        assertThat(took[0]).isLessThan(3_000);
        assertThat(server.awaitClosedByClient(5_000)).as("the server sees the connection closed").isTrue();
    }

    @Test
    void shouldFailAChunkedBodyStalledMidwayAtTheDeadlineAndCloseTheConnection() throws Exception {
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(-1));
            out.write("10\r\n{\"choices\":[{\"me\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
        long[] took = new long[1];

        Throwable error = failure(BoundedCall.send(client, get(server), BoundedBodies.ofString(1 << 20), DEADLINE), took);

        assertThat(error).isInstanceOf(CallDeadlineException.class);
        assertThat(took[0]).isLessThan(3_000);
        assertThat(server.awaitClosedByClient(5_000)).isTrue();
    }

    @Test
    void shouldFailAServerThatNeverSendsHeadersAtTheDeadlineAndCloseTheConnection() throws Exception {
        server = new RawHttpServer(out -> { });
        long[] took = new long[1];

        Throwable error = failure(BoundedCall.send(client, get(server), BoundedBodies.ofString(1 << 20), DEADLINE), took);

        assertThat(error).isInstanceOf(HttpTimeoutException.class);
        assertThat(took[0]).isLessThan(3_000);
        assertThat(server.awaitClosedByClient(5_000)).isTrue();
    }

    @Test
    void shouldFailAnAnswerOverItsCapWithoutReadingItAllAndCloseTheConnection() throws Exception {
        byte[] mib = new byte[1 << 20];
        java.util.Arrays.fill(mib, (byte) 'x');
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(1L << 40));
            for (int i = 0; i < 1_000_000; i++) {
                out.write(mib);
            }
        });
        long[] took = new long[1];

        Throwable error = failure(BoundedCall.send(client, get(server), BoundedBodies.ofString(64 * 1024), Duration.ofSeconds(8)), took);

        assertThat(error).isInstanceOfSatisfying(AnswerTooLargeException.class, e -> {
            assertThat(e.status()).isEqualTo(200);
            assertThat(e.limit()).isEqualTo(64 * 1024);
            assertThat(e.line()).isFalse();
            assertThat(e.getMessage()).isEqualTo("the answer is larger than 65536 bytes").doesNotContain("xx");
        });
        assertThat(took[0]).isLessThan(5_000);
        assertThat(server.awaitClosedByClient(5_000)).isTrue();
    }

    @Test
    void shouldReturnAWholeAnswerWithinTheDeadlineAndCap() throws Exception {
        String body = "{\"choices\":[]}";
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(body.length()));
            out.write(body.getBytes(StandardCharsets.US_ASCII));
        });

        HttpResponse<String> response = BoundedCall.send(client, get(server), BoundedBodies.ofString(body.length()), DEADLINE)
                .get(5, TimeUnit.SECONDS);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(body);
        assertThat(response.request().timeout()).contains(DEADLINE);
    }

    @Test
    void shouldStreamLinesAndFailALineOverItsCap() throws Exception {
        String lines = "{\"a\":1}\n{\"b\":22}\r\n" + "y".repeat(100) + "\n{\"never\":0}\n";
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(lines.length()));
            out.write(lines.getBytes(StandardCharsets.US_ASCII));
        });
        List<String> seen = new ArrayList<>();
        long[] took = new long[1];

        Throwable error = failure(BoundedCall.send(client, get(server), BoundedBodies.ofLines(50, Long.MAX_VALUE, seen::add),
                Duration.ofSeconds(5)), took);

        assertThat(error).isInstanceOfSatisfying(AnswerTooLargeException.class, e -> {
            assertThat(e.line()).isTrue();
            assertThat(e.limit()).isEqualTo(50);
        });
        assertThat(seen).doesNotContain("{\"never\":0}").allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(50));
    }

    @Test
    void shouldStreamEveryLineInOrderAndCountThem() throws Exception {
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            file.append("{\"custom_id\":\"").append(i).append("\"}\n");
        }
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(file.length()));
            out.write(file.toString().getBytes(StandardCharsets.US_ASCII));
        });
        List<String> seen = new ArrayList<>();

        HttpResponse<Long> response = BoundedCall.send(client, get(server), BoundedBodies.ofLines(64, Long.MAX_VALUE, seen::add),
                Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);

        assertThat(response.body()).isEqualTo(5_000);
        assertThat(seen).hasSize(5_000).startsWith("{\"custom_id\":\"0\"}").endsWith("{\"custom_id\":\"4999\"}");
    }

    @Test
    void shouldAbortTheExchangeWhenTheLineConsumerThrows() throws Exception {
        server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(-1));
            out.write("6\r\nfirst\n\r\n7\r\nsecond\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
        List<String> seen = new ArrayList<>();
        long[] took = new long[1];

        Throwable error = failure(BoundedCall.send(client, get(server), BoundedBodies.ofLines(64, Long.MAX_VALUE, line -> {
            if (line.equals("second")) {
                throw new IllegalStateException("refused line");
            }
            seen.add(line);
        }), Duration.ofSeconds(5)), took);

        assertThat(error).isInstanceOf(IllegalStateException.class).hasMessage("refused line");
        assertThat(seen).containsExactly("first");
        assertThat(took[0]).isLessThan(4_000);
        assertThat(server.awaitClosedByClient(5_000)).isTrue();
    }

    @Test
    void shouldRefuseADeadlineBelowOneMillisecond() {
        assertThatThrownBy(() -> BoundedCall.send(client, HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:1/")).build(),
                BoundedBodies.ofString(1), Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoundedBodies.ofString(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
