// A string enumeration: values from `#[value("..")]` or the snake_case name.

/// The side of an order.
#[derive(StrEnum, Debug, Clone, Copy)]
enum Side {
    #[value("buy")]
    Buy,
    #[value("sell")]
    Sell,
    ShortSell,
}
