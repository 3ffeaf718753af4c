package io.quotaflow.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A body subscriber in front of another (one of the JDK's {@code BodySubscribers}, which decode and collect):
 * it counts the bytes that pass, of the whole answer and of the current line, and can be aborted at any moment
 * (the whole-call deadline, a cap passed, a line the caller refused). Aborting cancels the upstream
 * subscription, which makes the JDK's client stop reading and close the connection, and fails the
 * downstream subscriber, so its body completes exceptionally at once.
 *
 * <p>Written here, not taken from a library: the JDK offers no size limit nor abort on its subscribers, and the
 * client's own request timeout ends with the response headers.
 */
final class GuardedSubscriber<T> implements HttpResponse.BodySubscriber<T> {

    /** No cap. */
    static final long UNLIMITED = Long.MAX_VALUE;

    private final HttpResponse.BodySubscriber<T> downstream;
    private final int status;
    private final long maxBytes;
    private final long maxLineBytes;
    private final AtomicBoolean aborted = new AtomicBoolean();
    private volatile Flow.Subscription upstream;
    private long bytes;
    private long lineBytes;

    /**
     * @param status       the answer's HTTP status (named by a cap's exception)
     * @param maxBytes     the whole answer's cap, or {@link #UNLIMITED}
     * @param maxLineBytes the cap of one line (bytes between line breaks), or {@link #UNLIMITED}
     */
    GuardedSubscriber(HttpResponse.BodySubscriber<T> downstream, int status, long maxBytes, long maxLineBytes) {
        this.downstream = downstream;
        this.status = status;
        this.maxBytes = maxBytes;
        this.maxLineBytes = maxLineBytes;
    }

    @Override
    public CompletionStage<T> getBody() {
        return downstream.getBody();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        upstream = subscription;
        if (aborted.get()) {
            subscription.cancel();
            return;
        }
        downstream.onSubscribe(subscription);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        if (aborted.get()) {
            return;
        }
        for (ByteBuffer buffer : item) {
            bytes += buffer.remaining();
            if (maxLineBytes != UNLIMITED && longestLine(buffer) > maxLineBytes) {
                abort(new AnswerTooLargeException(status, maxLineBytes, true));
                return;
            }
        }
        if (bytes > maxBytes) {
            abort(new AnswerTooLargeException(status, maxBytes, false));
            return;
        }
        downstream.onNext(item);
    }

    /** The longest run of bytes without a line break seen so far, counting the line carried over from before. */
    private long longestLine(ByteBuffer buffer) {
        long longest = lineBytes;
        for (int i = buffer.position(); i < buffer.limit(); i++) {
            byte b = buffer.get(i);
            if (b == '\n' || b == '\r') {
                lineBytes = 0;
            } else {
                lineBytes++;
                longest = Math.max(longest, lineBytes);
            }
        }
        return longest;
    }

    @Override
    public void onError(Throwable throwable) {
        if (!aborted.get()) {
            downstream.onError(throwable);
        }
    }

    @Override
    public void onComplete() {
        if (!aborted.get()) {
            downstream.onComplete();
        }
    }

    /**
     * Stops reading: cancels the upstream subscription (the client closes the connection) and fails the body
     * with {@code cause}. Only the first abort counts; an abort after the body completed changes nothing.
     */
    void abort(Throwable cause) {
        if (!aborted.compareAndSet(false, true)) {
            return;
        }
        Flow.Subscription s = upstream;
        if (s != null) {
            s.cancel();
        }
        downstream.onError(cause);
    }
}
