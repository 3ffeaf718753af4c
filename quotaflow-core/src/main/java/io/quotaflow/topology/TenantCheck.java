package io.quotaflow.topology;

import io.quotaflow.failure.ErrorKind;
import io.quotaflow.records.Priority;
import io.quotaflow.records.Ticket;
import io.quotaflow.records.TicketKey;
import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TopicNames;

import java.util.Map;
import java.util.Optional;

/**
 * Intake's answer to "whose ticket is this?" ({@code tenants.from}, docs/design.md, "Tenants"): the tenant its
 * source names (the record key, the per-tenant topic, or the body), refused {@code bad-input} when the ticket claims
 * another, and {@code unknown-tenant} (or taken as the default tenant's) when {@code tenants.allowed} lacks it. So the
 * dispatcher never sees a tenant that is not known. Records from the retry topic were checked when first taken in:
 * their body and origin topic name their tenant.
 */
final class TenantCheck {

    /** Longest tenant name echoed in a reason. */
    private static final int SHOWN = 60;

    private final TenantAccess access;
    private final Map<String, TenantAccess.TenantTopic> topics;

    TenantCheck(TenantAccess access, TopicNames names) {
        this.access = access;
        this.topics = access.topics(names);
    }

    /** What intake makes of a ticket's tenant. */
    sealed interface Outcome permits Tenant, Refused {
    }

    /** The ticket belongs to {@code name}. */
    record Tenant(String name) implements Outcome {
    }

    /** The ticket is dead-lettered with this kind and reason. */
    record Refused(ErrorKind kind, String reason) implements Outcome {
    }

    /** The priority of a per-tenant topic; empty for any other topic. */
    Optional<Priority> priorityOf(String topic) {
        return Optional.ofNullable(topics.get(topic)).map(TenantAccess.TenantTopic::priority);
    }

    /**
     * The tenant of {@code ticket}, read from {@code originTopic} with record key {@code key}.
     *
     * @param fromRetry whether it comes back from the retry topic (its key is quotaflow's)
     */
    Outcome resolve(Ticket ticket, String key, String originTopic, boolean fromRetry) {
        String claimed = ticket.tenant() == null || ticket.tenant().isBlank() ? TenantAccess.DEFAULT_TENANT : ticket.tenant();
        String tenant;
        switch (access.from()) {
            case KEY -> {
                String named = fromRetry ? claimed : keyTenant(key);
                if (!named.equals(claimed)) {
                    return new Refused(ErrorKind.BAD_INPUT, "the record key names tenant '" + shown(named)
                            + "' but the ticket's tenant is '" + shown(claimed) + "' (tenants.from=key)");
                }
                tenant = claimed;
            }
            case TOPIC, PRINCIPAL -> {
                TenantAccess.TenantTopic topic = topics.get(originTopic);
                if (topic == null) {
                    return new Refused(ErrorKind.BAD_INPUT, "topic '" + originTopic + "' is no tenant's input topic (tenants.from="
                            + from() + ")");
                }
                if (claims(ticket) && !claimed.equals(topic.tenant())) {
                    return new Refused(ErrorKind.BAD_INPUT, "the topic is tenant '" + topic.tenant() + "''s but the ticket's "
                            + "tenant is '" + shown(claimed) + "' (tenants.from=" + from() + ")");
                }
                tenant = topic.tenant();
            }
            default -> tenant = claimed;
        }
        return known(tenant);
    }

    /** {@code tenant} if known; else refused {@code unknown-tenant} or the default tenant, as {@code tenants.unknown} says. */
    private Outcome known(String tenant) {
        if (access.known(tenant)) {
            return new Tenant(tenant);
        }
        if (access.unknown() == TenantAccess.Unknown.DEFAULT) {
            return new Tenant(TenantAccess.DEFAULT_TENANT);
        }
        return new Refused(ErrorKind.UNKNOWN_TENANT, "tenant '" + shown(tenant) + "' is not in tenants.allowed");
    }

    /**
     * The ticket key a tombstone on input {@code topic} keyed {@code key} cancels, if any: under {@code key} and
     * {@code body} the identity the key names; under {@code topic} and {@code principal} the topic's tenant's ticket
     * ({@code id} or {@code <tenant>:id}), never another tenant's.
     */
    Optional<String> cancelKey(String key, String topic) {
        TicketKey named = TicketKey.parse(key);
        if (access.from().byTopic()) {
            TenantAccess.TenantTopic own = topics.get(topic);
            if (own == null) {
                return Optional.empty();
            }
            if (key.indexOf(':') < 0) {
                return Optional.of(TicketKey.key(own.tenant(), key));
            }
            return named.tenant().equals(own.tenant()) ? Optional.of(named.key()) : Optional.empty();
        }
        if (!access.known(named.tenant())) {
            return access.unknown() == TenantAccess.Unknown.DEFAULT
                    ? Optional.of(TicketKey.key(TenantAccess.DEFAULT_TENANT, named.id())) : Optional.empty();
        }
        return Optional.of(named.key());
    }

    /** Whether the body names a tenant (the parsed ticket reads an absent one as the default tenant). */
    private static boolean claims(Ticket ticket) {
        com.fasterxml.jackson.databind.JsonNode tenant = ticket.json() == null ? null : ticket.json().get("tenant");
        return tenant != null && tenant.isTextual() && !tenant.textValue().isBlank();
    }

    /** The tenant record key {@code key} names: its {@code tenant:} prefix, the default tenant without one. */
    private static String keyTenant(String key) {
        if (key == null) {
            return TenantAccess.DEFAULT_TENANT;
        }
        int colon = key.indexOf(':');
        return colon < 0 ? TenantAccess.DEFAULT_TENANT : key.substring(0, colon);
    }

    private String from() {
        return access.from().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String shown(String tenant) {
        return tenant.length() <= SHOWN ? tenant : tenant.substring(0, SHOWN) + "...";
    }
}
