// Name-based UUIDs (RFC 4122 version 5: SHA-1 of a namespace UUID and a name), so that the same name always
// gives the same identifier. Used for the GUIDs of REFI-QDA exports.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace qualrank::uuid {

using Bytes = std::array<unsigned char, 16>;

// The version-5 UUID of `name` in `ns`, as lower-case 8-4-4-4-12 hex.
std::string v5(const Bytes& ns, std::string_view name);

// Parses "8-4-4-4-12" hex (either case, optional braces). Returns nullopt for anything else.
std::optional<Bytes> parse(std::string_view text);

// Lower-case 8-4-4-4-12 form of `text` (braces removed), or "" when it is not a UUID. For comparing GUIDs
// written by different tools (upper/lower case, braces).
std::string normalise(std::string_view text);

// The RFC 4122 URL namespace (6ba7b811-9dad-11d1-80b4-00c04fd430c8).
const Bytes& url_namespace();

}  // namespace qualrank::uuid
