package io.quotaflow.status;

import io.quotaflow.settings.AccessTokens;

import java.util.Objects;

/**
 * Who asks the HTTP API: the tenant its token names ({@link AccessTokens#OPERATOR} for an operator),
 * and the SHA-256 digest of that token, which signs a question forwarded to another instance on the
 * caller's behalf ({@link PeerSignature}) so the token itself never leaves this instance.
 *
 * @param tenant      the caller's tenant, or {@value AccessTokens#OPERATOR}
 * @param tokenDigest the digest of the caller's token; null when the API needs no token
 */
public record Caller(String tenant, byte[] tokenDigest) {

    /** Anyone, when no token is configured: sees every tenant, forwards unsigned. */
    public static final Caller OPEN = new Caller(AccessTokens.OPERATOR, null);

    public Caller {
        Objects.requireNonNull(tenant, "tenant");
        tokenDigest = tokenDigest == null ? null : tokenDigest.clone();
    }

    /** Whether this caller may see tickets of {@code ticketTenant}: an operator's sees all, a tenant's its own. */
    public boolean mayRead(String ticketTenant) {
        return operator() || tenant.equals(ticketTenant);
    }

    public boolean operator() {
        return AccessTokens.OPERATOR.equals(tenant);
    }

    @Override
    public byte[] tokenDigest() {
        return tokenDigest == null ? null : tokenDigest.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Caller c && c.tenant.equals(tenant) && java.util.Arrays.equals(c.tokenDigest, tokenDigest);
    }

    @Override
    public int hashCode() {
        return tenant.hashCode();
    }

    /** The tenant only: never the digest. */
    @Override
    public String toString() {
        return "Caller[" + tenant + "]";
    }
}
