// What a keyword argument of a factory's construction is bound to: the word its rows are written with
// (bind, pass, hand_over in table_declarations.hpp).
#pragma once

namespace famspec {

enum class ArgumentBinding {
    parameter,  // bound to one of the factory's own parameters: renders the component default or a plan option
    literal,    // a fixed Python expression, rendered as written
    interface,  // a family function handed over: the component is rendered into the artifact
};

}  // namespace famspec
