package io.quotaflow.ticket;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * A publication of a ticket, as the notice the intake sends to every other quota scope's dispatcher
 * before the ticket itself goes to {@code scope} (docs/design.md, "Tenants": one result for the
 * newest content whatever routes the copies took). A dispatcher that holds an older copy on another
 * scope withdraws it; one that hears of it first drops the older copy when it arrives. Every
 * dispatcher orders two publications of one ticket the same way: the later {@code at} wins; at the
 * same millisecond, different content on the greater scope name wins; the same time and content is
 * the same publication (a copy a fallback moved), never its own rival.
 *
 * @param key    the ticket's key
 * @param at     when it was published (its record timestamp at intake, {@link WorkItem#publishedAt()})
 * @param scope  the quota scope it was sent to
 * @param sha256 its content's SHA-256
 */
public record Publication(String key, long at, String scope, String sha256) {

    static final String KEY = "qf.supersede";
    static final String AT = "qf.supersede.at";
    static final String SCOPE = "qf.supersede.scope";
    static final String SHA = "qf.supersede.sha256";

    public Publication {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(sha256, "sha256");
    }

    /** The publication {@code item} is, sent to {@code scope}. */
    public static Publication of(WorkItem item, String scope) {
        return new Publication(item.key(), item.publishedAt(), scope, item.originalSha256());
    }

    /** Whether this publication replaces a copy published {@code otherAt} with content {@code otherSha} held on {@code otherScope}. */
    public boolean supersedes(long otherAt, String otherSha, String otherScope) {
        if (at != otherAt) {
            return at > otherAt;
        }
        return !sha256.equals(otherSha) && scope.compareTo(otherScope) > 0;
    }

    /** Whether this publication replaces {@code copy}, held on {@code copyScope}. */
    public boolean supersedes(WorkItem copy, String copyScope) {
        return !copyScope.equals(scope) && supersedes(copy.publishedAt(), copy.originalSha256(), copyScope);
    }

    /** The notice's headers (its value is null, like a cancel's). */
    public Headers headers() {
        RecordHeaders h = new RecordHeaders();
        h.add(KEY, key.getBytes(StandardCharsets.UTF_8));
        h.add(AT, Long.toString(at).getBytes(StandardCharsets.UTF_8));
        h.add(SCOPE, scope.getBytes(StandardCharsets.UTF_8));
        h.add(SHA, sha256.getBytes(StandardCharsets.UTF_8));
        return h;
    }

    /** The notice these headers carry, if they carry one. */
    public static Optional<Publication> read(Headers headers) {
        String key = text(headers, KEY);
        String at = text(headers, AT);
        String scope = text(headers, SCOPE);
        String sha = text(headers, SHA);
        if (key == null || at == null || scope == null || sha == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Publication(key, Long.parseLong(at), scope, sha));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String text(Headers headers, String name) {
        var h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
