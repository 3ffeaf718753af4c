package io.quotaflow.config;

import java.util.HashSet;
import java.util.Set;
import io.quotaflow.settings.TenantSettings;

/** Reads the {@link TenantSettings} from the merged {@code tenant.<name>.*} values. */
final class TenantReader {

    private TenantReader() {
    }

    static TenantSettings read(ConfigValues values) {
        Set<String> names = new HashSet<>();
        for (String key : values.keysStartingWith(TenantKeys.PREFIX)) {
            names.add(key.substring(TenantKeys.PREFIX.length(), key.lastIndexOf('.')));
        }
        TenantSettings.Builder b = TenantSettings.builder();
        for (String tenant : names) {
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
        return b.build();
    }
}
