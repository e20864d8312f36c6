#include "famspec/canonical_json.hpp"

#include <nettle/sha2.h>
// Nettle names its functions through macros, and sha256_digest is also famspec's own name.
#undef sha256_digest

#include <algorithm>
#include <array>
#include <boost/json/serialize.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace famspec {
namespace {

void write(const boost::json::value& value, std::string& out) {
    switch (value.kind()) {
        case boost::json::kind::null:
            out += "null";
            return;
        case boost::json::kind::bool_:
            out += value.get_bool() ? "true" : "false";
            return;
        case boost::json::kind::int64:
            out += std::to_string(value.get_int64());
            return;
        case boost::json::kind::uint64:
            out += std::to_string(value.get_uint64());
            return;
        case boost::json::kind::double_:
            // Nothing famspec emits is a float; a float would make the bytes depend on formatting.
            throw std::logic_error("canonical JSON does not carry floating-point numbers");
        case boost::json::kind::string:
            out += boost::json::serialize(value.get_string());
            return;
        case boost::json::kind::array: {
            out += '[';
            bool first = true;
            for (const auto& item : value.get_array()) {
                if (!first) out += ',';
                first = false;
                write(item, out);
            }
            out += ']';
            return;
        }
        case boost::json::kind::object: {
            const auto& object = value.get_object();
            std::vector<const boost::json::key_value_pair*> members;
            members.reserve(object.size());
            for (const auto& member : object) members.push_back(&member);
            std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->key() < b->key(); });
            out += '{';
            bool first = true;
            for (const auto* member : members) {
                if (!first) out += ',';
                first = false;
                out += boost::json::serialize(boost::json::string_view(member->key()));
                out += ':';
                write(member->value(), out);
            }
            out += '}';
            return;
        }
    }
}

}  // namespace

std::string canonical_json(const boost::json::value& value) {
    std::string out;
    write(value, out);
    return out;
}

// Nettle: a hashing library with nothing to initialise, so the first digest of a process costs
// only the hashing (libcrypto loads its configuration and a provider first).
std::string sha256_digest(std::string_view bytes) {
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    sha256_ctx context{};
    sha256_init(&context);
    sha256_update(&context, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
    nettle_sha256_digest(&context, digest.size(), digest.data());
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "sha256:";
    out.reserve(out.size() + 2 * digest.size());
    for (const std::uint8_t byte : digest) {
        out += kDigits[byte >> 4U];
        out += kDigits[byte & 0xFU];
    }
    return out;
}

}  // namespace famspec
