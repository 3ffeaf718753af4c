package io.quotaflow.http;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One exchange of {@link HttpClient#sendAsync} bounded as a whole: connecting, the response headers and the
 * whole body must be done within the deadline. {@link HttpRequest#timeout()} bounds the wait for the headers
 * only; a body that stalls after them would keep the call (and the exchange's connection) open for good. When
 * the deadline passes, the body's subscription is cancelled (the client stops reading and closes the
 * connection), the client's future is cancelled (which aborts an exchange still waiting for its headers), and
 * the returned future fails with a {@link CallDeadlineException}, an {@link java.net.http.HttpTimeoutException}.
 *
 * <p>The deadlines run on one shared daemon timer thread, which only cancels and hands the failure to the
 * client's executor; a deadline is removed from it as soon as its call ends, so it holds at most the calls in
 * flight.
 */
public final class BoundedCall {

    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private BoundedCall() {
    }

    /**
     * Sends {@code request} with {@code client}, its answer read by {@code handler} (a {@link BoundedBodies}
     * handler caps its size), the whole call within {@code deadline}. The request's own timeout is set to the
     * deadline when it has none or a longer one. Never throws: a failure to send fails the future.
     */
    public static <T> CompletableFuture<HttpResponse<T>> send(HttpClient client, HttpRequest request,
                                                              HttpResponse.BodyHandler<T> handler, Duration deadline) {
        long ms = deadline.toMillis();
        if (ms <= 0) {
            throw new IllegalArgumentException("deadline must be at least 1 ms: " + deadline);
        }
        HttpRequest timed = request.timeout().filter(t -> t.compareTo(deadline) <= 0).isPresent() ? request
                : HttpRequest.newBuilder(request, (name, value) -> true).timeout(deadline).build();
        Call<T> call = new Call<>(handler, ms, client.executor().orElse(ForkJoinPool.commonPool()));
        CompletableFuture<HttpResponse<T>> sent;
        try {
            sent = client.sendAsync(timed, call);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        ScheduledFuture<?> timer = TIMER.schedule(() -> call.expire(sent), ms, TimeUnit.MILLISECONDS);
        sent.whenComplete((response, error) -> {
            timer.cancel(false);
            call.finish(response, error);
        });
        return call.result;
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "quotaflow-http-deadline");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** One call's state: its subscriber once the headers came, and which of its end or its deadline came first. */
    private static final class Call<T> implements HttpResponse.BodyHandler<T> {

        private final HttpResponse.BodyHandler<T> handler;
        private final long deadlineMs;
        private final Executor executor;
        private final CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
        private final AtomicReference<GuardedSubscriber<T>> subscriber = new AtomicReference<>();
        private final AtomicBoolean ended = new AtomicBoolean();

        Call(HttpResponse.BodyHandler<T> handler, long deadlineMs, Executor executor) {
            this.handler = handler;
            this.deadlineMs = deadlineMs;
            this.executor = executor;
        }

        @Override
        public HttpResponse.BodySubscriber<T> apply(HttpResponse.ResponseInfo info) {
            GuardedSubscriber<T> guarded = new GuardedSubscriber<>(handler.apply(info), info.statusCode(),
                    GuardedSubscriber.UNLIMITED, GuardedSubscriber.UNLIMITED);
            subscriber.set(guarded);
            if (ended.get()) {
                // the deadline passed while the headers were being read
                guarded.abort(new CallDeadlineException(deadlineMs));
            }
            return guarded;
        }

        void finish(HttpResponse<T> response, Throwable error) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            if (error == null) {
                result.complete(response);
            } else {
                result.completeExceptionally(error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error);
            }
        }

        /** The deadline passed: aborts the exchange, then fails the call on the client's executor. */
        void expire(CompletableFuture<HttpResponse<T>> sent) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            CallDeadlineException late = new CallDeadlineException(deadlineMs);
            GuardedSubscriber<T> guarded = subscriber.get();
            if (guarded != null) {
                guarded.abort(late);
            }
            sent.cancel(true);
            try {
                executor.execute(() -> result.completeExceptionally(late));
            } catch (RejectedExecutionException closed) {
                result.completeExceptionally(late);
            }
        }
    }
}
