package io.quotaflow.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import io.quotaflow.settings.Keys;
import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TenantSettings;

/**
 * Reads the {@link TenantSettings} from the merged {@code tenant.<name>.*} values, with their {@link TenantAccess}
 * ({@code tenants.from}, {@code tenants.allowed}, {@code tenants.unknown}, {@code tenant.<name>.principal}).
 */
final class TenantReader {

    private TenantReader() {
    }

    static TenantSettings read(ConfigValues values) {
        Set<String> names = new HashSet<>();
        for (String key : values.keysStartingWith(TenantKeys.PREFIX)) {
            names.add(key.substring(TenantKeys.PREFIX.length(), key.lastIndexOf('.')));
        }
        TenantSettings.Builder b = TenantSettings.builder();
        List<String> allowed = values.get(Keys.TENANTS_ALLOWED).isPresent() ? values.list(Keys.TENANTS_ALLOWED) : List.of();
        TenantAccess.Builder access = TenantAccess.builder().from(TenantAccess.From.parse(values.string(Keys.TENANTS_FROM)))
                .allowed(allowed).unknown(TenantAccess.Unknown.parse(values.string(Keys.TENANTS_UNKNOWN)));
        for (String tenant : names) {
            String principal = TenantKeys.key(tenant, "principal");
            values.get(principal).ifPresent(v -> access.principal(tenant, v.toString()));
            String weight = TenantKeys.key(tenant, "weight");
            String tpm = TenantKeys.key(tenant, "tpm");
            String rpm = TenantKeys.key(tenant, "rpm");
            b.weight(tenant, values.get(weight).isPresent() ? values.number(weight) : 1);
            if (values.get(tpm).isPresent()) {
                b.tpm(tenant, values.longValue(tpm));
            }
            if (values.get(rpm).isPresent()) {
                b.rpm(tenant, values.longValue(rpm));
            }
        }
        try {
            return b.build().withAccess(access.build());
        } catch (IllegalArgumentException e) {
            throw new ConfigError(e.getMessage());
        }
    }
}
