package dev.rekon.modules.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The modules' section of the page (area {@code modules}; JSON {@code modules} at the top of the document): one
 * row per module on each channel, as its plan has it, held back first. Its HTML is {@code ModuleSection/rows.html}.
 */
@RegisterForReflection
public record ModuleSection(List<ModuleRow> modules) implements AreaSection {

    public ModuleSection {
        modules = List.copyOf(modules);
    }

    @Override
    public Slot slot() {
        return new Slot("modules", 30, Json.UNWRAPPED);
    }

    @Override
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("modules", modules.size());
        counts.put("modulesHeldBack", (int) modules.stream().filter(ModuleRow::problem).count());
        return counts;
    }

    @Override
    public String summaryHtml() {
        return AreaSection.counted(modules.size(), "modules", counts().get("modulesHeldBack"), "held back");
    }

    /**
     * One module on one channel.
     *
     * @param state         {@code HeldBack} (with the policy's reason), {@code Pending} (the newest release would
     *                      apply), {@code UpToDate} or {@code Unknown}
     * @param suspended     the Deployments ({@code namespace/name}) that are suspended
     * @param manualChanges what Rekon says of each Deployment changed by hand
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ModuleRow(String module, String channel, String version, boolean enabled, String newestOnChannel,
            String state, boolean problem, String reason, String message, List<String> deployments,
            List<String> suspended, List<String> manualChanges) {
    }
}
