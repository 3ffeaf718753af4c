package io.quotaflow.records;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A ticket's identity, (tenant, id), and its record-key form. Two tenants may use the same id: they
 * are two tickets (docs/design.md, "Tenants and identity").
 *
 * <p>The key form is the ticket id alone for the {@value Ticket#DEFAULT_TENANT} tenant (so
 * single-tenant producers key by id, as they always have) and {@code tenant:id} otherwise. A tenant
 * name never contains {@code ':'}, so the first colon of a key splits it; a key without a colon names
 * the default tenant. A default-tenant id that itself contains a colon is keyed
 * {@code default:id}, so every key reads back as the identity it was made from. Producers should key
 * tickets this way (updates of one ticket then share a partition) and must key a tombstone this way:
 * a tombstone cancels only the ticket of the tenant its key names.
 *
 * @param tenant the tenant, {@value Ticket#DEFAULT_TENANT} when absent
 * @param id     the ticket id within its tenant
 */
public record TicketKey(String tenant, String id) {

    /** Longest tenant name. */
    public static final int MAX_TENANT_LENGTH = 128;
    /** Tenant names: any characters but {@code ':'} and control characters, at most {@value #MAX_TENANT_LENGTH}. */
    public static final Pattern TENANT = Pattern.compile("[^:\\p{Cntrl}]{1," + MAX_TENANT_LENGTH + "}");

    public TicketKey {
        Objects.requireNonNull(id, "id");
        tenant = tenant == null || tenant.isBlank() ? Ticket.DEFAULT_TENANT : tenant;
        if (tenant.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a tenant name cannot contain ':'");
        }
    }

    /** The identity of {@code ticket}. */
    public static TicketKey of(Ticket ticket) {
        return new TicketKey(ticket.tenant(), ticket.id());
    }

    /** The record key of ({@code tenant}, {@code id}). */
    public static String key(String tenant, String id) {
        return new TicketKey(tenant, id).key();
    }

    /** The identity a record key names; a key without a colon names the default tenant's ticket. */
    public static TicketKey parse(String key) {
        Objects.requireNonNull(key, "key");
        int colon = key.indexOf(':');
        if (colon < 0) {
            return new TicketKey(Ticket.DEFAULT_TENANT, key);
        }
        return new TicketKey(key.substring(0, colon), key.substring(colon + 1));
    }

    /** The record-key form: {@code id} for the default tenant (unless it contains a colon), else {@code tenant:id}. */
    public String key() {
        if (Ticket.DEFAULT_TENANT.equals(tenant) && id.indexOf(':') < 0) {
            return id;
        }
        return tenant + ':' + id;
    }

    /** Whether {@code tenant} is a valid tenant name. */
    public static boolean validTenant(String tenant) {
        return tenant != null && TENANT.matcher(tenant).matches();
    }

    @Override
    public String toString() {
        return key();
    }
}
